import Capture
print("pipcam")
