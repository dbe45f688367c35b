sqtt
stats
@DATA@/sqtt/gfx1100/empty
