# SPDX-License-Identifier: GPL-2.0
#
# mstat - consistent kernel memory allocation statistics
#
#   make              build mstat.ko against KDIR (the running kernel's)
#   make ARCH=arm64   cross-build it for arm64, against Debian's arm64 6.12
#                     headers as scripts/setup.sh extracts them into
#                     $(MSTAT_CACHE) (or KDIR=an arm64 tree; CROSS_COMPILE
#                     defaults to aarch64-linux-gnu-)
#   make install      install it into /lib/modules/<KDIR's release>/updates
#   make run          set up, boot a guest, load mstat, show /proc/mstat
#   make check        set up and run every test (what CI runs)
#   make test T=NAME [KERNEL=K]
#                     one test alone, by the name a run printed
#                     (scripts/test.sh; make test T=--list lists them)
#   make bench        benchmarks; figures into build/bench/RESULTS.md
#   make stress       long runs (1000 load cycles, long tortures)
#   make soak         the test kernels make check does not boot: x86
#                     under KCSAN, arm64 under KASAN; the long forms of
#                     what make check shortens (scripts/soak.sh)
#   make fresh        make run and make check in a root debootstrap just
#                     made, from nothing (about an hour); SOAK=1: and
#                     make soak after it
#   make deb          the Debian packages mstat-dkms and mstat, built by
#                     dpkg-buildpackage, into build/deb/ (scripts/deb.sh)
#   make canary       build and smoke-test mstat on the newest release
#                     candidate in Debian experimental (scripts/canary.sh)
#   make clean
ifeq ($(ARCH),arm64)
MSTAT_CACHE ?= /var/cache/mstat
CROSS_COMPILE ?= aarch64-linux-gnu-
export CROSS_COMPILE
KDIR ?= $(lastword $(sort $(wildcard \
	$(MSTAT_CACHE)/arm64/headers/*/usr/src/linux-headers-*-arm64)))
ifeq ($(KDIR),)
$(error ARCH=arm64: no arm64 headers in $(MSTAT_CACHE)/arm64: run scripts/setup.sh, or set KDIR)
endif
endif
KDIR ?= /lib/modules/$(shell uname -r)/build

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install

# DKMS runs "make clean" in /usr/src/mstat-VERSION, which has no tests/.
clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	$(if $(wildcard tests/userspace/Makefile),$(MAKE) -C tests/userspace clean)

run:
	scripts/run.sh

check:
	scripts/check.sh

test:
	scripts/test.sh $(if $(KERNEL),-k $(KERNEL)) '$(T)'

bench:
	scripts/bench.sh

stress:
	scripts/stress.sh

soak:
	scripts/soak.sh

fresh:
	MSTAT_FRESH_SOAK=$(SOAK) scripts/fresh.sh

deb:
	scripts/deb.sh

canary:
	scripts/canary.sh

fleet:
	scripts/fleet-test.sh

.PHONY: all modules install clean run check test bench stress soak fresh deb canary fleet
