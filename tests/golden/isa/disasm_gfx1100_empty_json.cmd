--json
disasm
@DATA@/sqtt/gfx1100/empty/program.elf
