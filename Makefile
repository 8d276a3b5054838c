# SPDX-License-Identifier: GPL-2.0
#
# mstat - consistent kernel memory allocation statistics
#
#   make              build mstat.ko against KDIR (the running kernel's)
#   make run          set up, boot a guest, load mstat, show /proc/mstat
#   make check        set up and run every test (what CI runs)
#   make clean
KDIR ?= /lib/modules/$(shell uname -r)/build

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	$(MAKE) -C tools/testing clean

run:
	scripts/run.sh

check:
	scripts/check.sh

.PHONY: all modules clean run check
