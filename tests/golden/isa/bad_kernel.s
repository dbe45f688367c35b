bogus_op v0, v1
  s_endpgm
