# SPDX-License-Identifier: GPL-2.0
#
# The compile tests of compat/ (compat/conftest.sh), run by kbuild with
# the flags it compiles the module with, into $(obj)/mstat_conftest.h,
# which mstat_compat.h includes. Include this file from a Kbuild file
# after setting mstat_conftest_users to the objects that include
# mstat_compat.h (and, for another directory of the same build,
# mstat_conftest_from, below). if_changed reruns the tests when the flags
# (the target kernel's include paths among them) change.
mstat_compat_dir := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

quiet_cmd_mstat_conftest = CONFTEST $@
      cmd_mstat_conftest = MSTAT_SYMVERS=$(objtree)/Module.symvers $(CONFIG_SHELL) $(mstat_compat_dir)/conftest.sh \
	$@ $(mstat_compat_dir) $(CC) $(filter-out -Wp$(comma)%,$(c_flags))

# tests/ and kunit/ are built after mstat.ko, against the same kernel with
# the same compiler and flags but for an include path of their own (its
# directory, which holds no header a test includes): they set
# mstat_conftest_from to mstat.ko's results and take them, rather than
# compile every test twice more (with its 33 tests, that was two thirds
# of a W=1 build's CPU time). Without that file, they run the tests.
ifneq ($(wildcard $(mstat_conftest_from)),)
quiet_cmd_mstat_conftest = CONFTEST $@ (from $(mstat_conftest_from))
      cmd_mstat_conftest = cp $(mstat_conftest_from) $@ && \
	cp $(mstat_conftest_from).log $@.log
endif

targets += mstat_conftest.h
clean-files += mstat_conftest.h mstat_conftest.h.log
$(obj)/mstat_conftest.h: $(mstat_compat_dir)/conftest.sh \
			 $(wildcard $(mstat_compat_dir)/*.conftest) FORCE
	$(call if_changed,mstat_conftest)

ccflags-y += -I$(obj)
$(addprefix $(obj)/,$(mstat_conftest_users)): $(obj)/mstat_conftest.h
