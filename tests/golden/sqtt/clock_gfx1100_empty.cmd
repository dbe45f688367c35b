sqtt
clock
@DATA@/sqtt/gfx1100/empty
