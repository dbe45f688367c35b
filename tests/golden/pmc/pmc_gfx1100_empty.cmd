pmc
@DATA@/sqtt/gfx1100/empty
