--json
rewrite-trace
info
@DATA@/tinygrad-viz/elementwise/rewrites.pkl
