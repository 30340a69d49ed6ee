# The two commands a newcomer needs: `make demo` and `make test`. Both install what is missing first.
SWIFT ?= swift
PIPCAM = .build/debug/pipcam
export G_DEBUG = fatal-criticals

# `make install` puts pipcam on the PATH: a release build, completions for bash, zsh and fish, a man
# page, and systemd units for `pipcam serve` (a user's, and a machine's per user: pipcam-serve@USER),
# under $(DESTDIR)$(PREFIX). `make uninstall` removes those files again, and nothing else.
PREFIX ?= /usr/local
# The release build has a scratch path of its own: it never waits for `swift test`'s lock on .build.
RELEASE = .build-release
# `CONFIG=debug` stages the debug build in .build instead. `make test` stages it before the tests
# start, and the install test installs that one: it checks what is installed and where without
# building everything a second time. `make install` stays a release build.
CONFIG ?= release
BUILT = $(if $(filter debug,$(CONFIG)),.build,$(RELEASE))
STAGE = $(BUILT)/stage
STAGED = $(BUILT)/staged
MANUAL = $(BUILT)/plugins/GenerateManual/outputs/pipcam/pipcam.1
# Every file install writes, relative to PREFIX; uninstall removes exactly these.
INSTALLED = bin/pipcam \
	share/bash-completion/completions/pipcam \
	share/zsh/site-functions/_pipcam \
	share/fish/vendor_completions.d/pipcam.fish \
	share/man/man1/pipcam.1 \
	lib/systemd/user/pipcam-serve.service \
	lib/systemd/system/pipcam-serve@.service

.PHONY: deps test-deps build demo test unit test-devices sanitize sanitize-proof release install uninstall clean

deps:
	@scripts/install-deps

# What running pipcam needs, and the servers the streaming tests start (nginx with its RTMP module).
test-deps:
	@scripts/install-deps --tests

build: deps
	$(SWIFT) build

# A five-second picture-in-picture recording from two synthetic cameras and two tones.
demo: build
	$(PIPCAM) record demo.mkv --pipeline pipelines/demo.yaml --duration 5 --force
	@gst-discoverer-1.0 demo.mkv | sed -n '1,/Properties/p'
	@echo "open demo.mkv with any player (e.g. ffplay demo.mkv)"

test: test-deps
	$(SWIFT) build --build-tests
	@$(MAKE) --no-print-directory CONFIG=debug release
	$(SWIFT) test --disable-swift-testing --skip 'DeviceTests|DeviceLossTests'

# The pure code alone (options, control commands, JSON lines, limits, layout, the demo's graph): seconds.
unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-swift-testing --filter UnitTests

# The same on real kernel drivers (vivid webcams, ALSA loopback) inside a small VM.
test-devices: test-deps
	$(SWIFT) build --build-tests
	PIPCAM_DEVICE_TESTS=1 $(SWIFT) test --disable-swift-testing --filter 'DeviceTests|DeviceLossTests'

# pipcam's own C (CPipcamGst, CScaledJPEG) built with AddressSanitizer and UndefinedBehaviorSanitizer,
# outside SwiftPM, and driven by the C tests in Tests/Sanitize: the pause gate, the frame grid, the sync
# signals, the JPEG decoder on every chroma layout and damaged pictures. GStreamer itself is not
# instrumented; its memory is plain malloc (G_SLICE) so that the sanitizer sees what pipcam's C frees.
SANITIZE = .build-sanitize
# The clang beside swift: the toolchain's has the sanitizers' runtimes (a system clang may not).
SAN_CC ?= $(shell dirname "$$(readlink -f "$$(command -v swift)")")/clang
SAN_PKGS = gstreamer-1.0 gstreamer-video-1.0 gstreamer-audio-1.0 gstreamer-check-1.0 libjpeg
SAN_FLAGS = -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -fuse-ld=lld \
	-Wall -Wextra -Werror -Wno-unused-parameter \
	-ISources/CPipcamGst/include -ISources/CPipcamGst -ISources/CScaledJPEG/include
SAN_C = $(wildcard Sources/CPipcamGst/*.c) Sources/CScaledJPEG/scaled_jpeg_decoder.c
SAN_HEADERS = $(wildcard Sources/CPipcamGst/*.h Sources/CPipcamGst/include/*.h Sources/CScaledJPEG/include/*.h)
SAN_TESTS = pause_gate frame_grid sync_signals sound_gaps message_origin jpeg_decoder
SAN_ENV = ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 G_SLICE=always-malloc

$(SANITIZE)/%: Tests/Sanitize/%.c Tests/Sanitize/check.h $(SAN_C) $(SAN_HEADERS)
	@mkdir -p $(@D)
	$(SAN_CC) $(SAN_FLAGS) $$(pkg-config --cflags $(SAN_PKGS)) $< $(SAN_C) -o $@ $$(pkg-config --libs $(SAN_PKGS)) -lm

$(SANITIZE)/clips/made: Tests/Sanitize/make-jpegs
	Tests/Sanitize/make-jpegs $(@D) && touch $@

sanitize: test-deps $(SAN_TESTS:%=$(SANITIZE)/%) $(SANITIZE)/clips/made
	@for test in $(SAN_TESTS); do $(SAN_ENV) $(SANITIZE)/$$test $(SANITIZE)/clips || exit 1; done

# The decoder as it was before it read the chroma's sizes before ending the decode: `make sanitize`'s
# JPEG test must stop it with a use-after-free, or it would not have found that bug.
sanitize-proof: $(SANITIZE)/clips/made
	patch -R -s -o $(SANITIZE)/reverted.c Sources/CScaledJPEG/scaled_jpeg_decoder.c Tests/Sanitize/jpeg-decoder-use-after-free.patch
	$(SAN_CC) $(SAN_FLAGS) $$(pkg-config --cflags $(SAN_PKGS)) Tests/Sanitize/jpeg_decoder.c $(SANITIZE)/reverted.c \
		-o $(SANITIZE)/jpeg_decoder_reverted $$(pkg-config --libs $(SAN_PKGS)) -lm
	! $(SAN_ENV) $(SANITIZE)/jpeg_decoder_reverted $(SANITIZE)/clips 2> $(SANITIZE)/reverted.log
	grep -q 'heap-use-after-free' $(SANITIZE)/reverted.log && echo "sanitize-proof: the old decoder's use-after-free is found"

# Builds pipcam in release and stages what install copies, with the layout it has under PREFIX.
# The man page is swift-argument-parser's GenerateManual plugin's, which builds the package in
# release itself (in the same place, so `swift build` before it only saves it the work).
# Done again only when a source changed, so `make release && sudo make install` needs no swift
# on root's PATH (sudo resets PATH).
release: $(STAGED)

$(STAGED): Makefile Package.swift $(shell find Sources systemd -type f) | deps
	$(if $(STAGED_ONLY),$(error $(STAGED) is older than a source; `make test` stages the debug build first))
	$(SWIFT) build -c $(CONFIG) --scratch-path $(BUILT) --product pipcam
	rm -f $(MANUAL)
	$(SWIFT) package --scratch-path $(BUILT) plugin generate-manual --configuration $(CONFIG)
	rm -rf $(STAGE)
	mkdir -p $(addprefix $(STAGE)/,$(sort $(dir $(INSTALLED))))
	cp $(BUILT)/$(CONFIG)/pipcam $(STAGE)/bin/pipcam
	$(STAGE)/bin/pipcam --generate-completion-script bash > $(STAGE)/share/bash-completion/completions/pipcam
	$(STAGE)/bin/pipcam --generate-completion-script zsh > $(STAGE)/share/zsh/site-functions/_pipcam
	$(STAGE)/bin/pipcam --generate-completion-script fish > $(STAGE)/share/fish/vendor_completions.d/pipcam.fish
	cp $(MANUAL) $(STAGE)/share/man/man1/pipcam.1
	cp systemd/pipcam-serve.service $(STAGE)/lib/systemd/user/pipcam-serve.service
	cp systemd/pipcam-serve@.service $(STAGE)/lib/systemd/system/pipcam-serve@.service
	touch $@

# The units name pipcam where it is installed (PREFIX/bin), written in as they are installed.
install: $(STAGED)
	@for file in $(INSTALLED); do \
		case $$file in bin/*) mode=755 ;; *) mode=644 ;; esac; \
		echo "install $(DESTDIR)$(PREFIX)/$$file"; \
		source=$(STAGE)/$$file; \
		case $$file in lib/systemd/*) sed 's|@BINDIR@|$(PREFIX)/bin|' $$source > $(STAGE)/unit.tmp; source=$(STAGE)/unit.tmp ;; esac; \
		install -D -m $$mode $$source "$(DESTDIR)$(PREFIX)/$$file" || exit 1; \
	done; rm -f $(STAGE)/unit.tmp

uninstall:
	@for file in $(INSTALLED); do \
		echo "rm -f $(DESTDIR)$(PREFIX)/$$file"; \
		rm -f "$(DESTDIR)$(PREFIX)/$$file" || exit 1; \
	done

clean:
	rm -rf .build $(RELEASE) $(SANITIZE) demo.mkv
