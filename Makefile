# SPDX-License-Identifier: GPL-2.0
#
# mstat - consistent kernel memory allocation statistics
#
#   make              build mstat.ko against KDIR (the running kernel's)
#   make install      install it into /lib/modules/<KDIR's release>/updates
#   make run          set up, boot a guest, load mstat, show /proc/mstat
#   make check        set up and run every test (what CI runs)
#   make bench        benchmarks; figures into build/bench/RESULTS.md
#   make stress       long runs (1000 load cycles, long tortures)
#   make clean
KDIR ?= /lib/modules/$(shell uname -r)/build

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	$(MAKE) -C tests/userspace clean

run:
	scripts/run.sh

check:
	scripts/check.sh

bench:
	scripts/bench.sh

stress:
	scripts/stress.sh

.PHONY: all modules install clean run check bench stress
