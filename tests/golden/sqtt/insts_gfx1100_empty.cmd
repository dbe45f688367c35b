sqtt
insts
@DATA@/sqtt/gfx1100/empty
