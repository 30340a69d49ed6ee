# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing first.
SWIFT ?= swift
PIPCAM = .build/debug/pipcam
export G_DEBUG = fatal-criticals

.PHONY: deps build demo test test-devices clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

# A five-second picture-in-picture recording from two synthetic cameras and two tones.
demo: build
	$(PIPCAM) record demo.mkv --pipeline pipelines/demo.yaml --duration 5 --force
	@gst-discoverer-1.0 demo.mkv | sed -n '1,/Properties/p'
	@echo "open demo.mkv with any player (e.g. ffplay demo.mkv)"

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-swift-testing --skip DeviceTests

# The same on real kernel drivers (vivid webcams, ALSA loopback) inside a small VM.
test-devices: deps
	$(SWIFT) build --build-tests
	PIPCAM_DEVICE_TESTS=1 $(SWIFT) test --disable-swift-testing --filter DeviceTests

clean:
	rm -rf .build demo.mkv
