--json
rewrite-trace
contexts
@DATA@/tinygrad-viz/elementwise/rewrites.pkl
