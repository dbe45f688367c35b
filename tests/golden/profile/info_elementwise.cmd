profile
info
@DATA@/tinygrad-viz/elementwise/profile.pkl
