run
elementwise
--check
--json
%%
run
layernorm
--json
