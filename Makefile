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
STAGE = $(RELEASE)/stage
STAGED = $(RELEASE)/staged
MANUAL = $(RELEASE)/plugins/GenerateManual/outputs/pipcam/pipcam.1
# Every file install writes, relative to PREFIX; uninstall removes exactly these.
INSTALLED = bin/pipcam \
	share/bash-completion/completions/pipcam \
	share/zsh/site-functions/_pipcam \
	share/fish/vendor_completions.d/pipcam.fish \
	share/man/man1/pipcam.1 \
	lib/systemd/user/pipcam-serve.service \
	lib/systemd/system/pipcam-serve@.service

.PHONY: deps test-deps build demo test unit test-devices release install uninstall clean

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
	$(SWIFT) test --disable-swift-testing --skip 'DeviceTests|DeviceLossTests'

# The pure code alone (options, control commands, JSON lines, limits, layout, the demo's graph): seconds.
unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-swift-testing --filter UnitTests

# The same on real kernel drivers (vivid webcams, ALSA loopback) inside a small VM.
test-devices: test-deps
	$(SWIFT) build --build-tests
	PIPCAM_DEVICE_TESTS=1 $(SWIFT) test --disable-swift-testing --filter 'DeviceTests|DeviceLossTests'

# Builds pipcam in release and stages what install copies, with the layout it has under PREFIX.
# The man page is swift-argument-parser's GenerateManual plugin's, which builds the package in
# release itself (in the same place, so `swift build` before it only saves it the work).
# Done again only when a source changed, so `make release && sudo make install` needs no swift
# on root's PATH (sudo resets PATH).
release: $(STAGED)

$(STAGED): Makefile Package.swift $(shell find Sources systemd -type f) | deps
	$(SWIFT) build -c release --scratch-path $(RELEASE) --product pipcam
	rm -f $(MANUAL)
	$(SWIFT) package --scratch-path $(RELEASE) plugin generate-manual
	rm -rf $(STAGE)
	mkdir -p $(addprefix $(STAGE)/,$(sort $(dir $(INSTALLED))))
	cp $(RELEASE)/release/pipcam $(STAGE)/bin/pipcam
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
	rm -rf .build $(RELEASE) demo.mkv
