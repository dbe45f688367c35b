; a few gfx11 instructions for the asm goldens
  s_mov_b32 s0, 0x40
  v_add_nc_u32 v1, v0, s0
  s_waitcnt lgkmcnt(0)
  s_cbranch_scc0 done
  v_mov_b32 v2, 1.0
done:
  s_endpgm
