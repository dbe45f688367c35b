sqtt
waves
@DATA@/sqtt/gfx1100/empty
