sqtt
decode
@DATA@/sqtt/gfx1100/empty/se0.bin
--limit
30
