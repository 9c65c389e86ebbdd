# The build of a directory of guest test programs, included by
# tests/{guest,vrq,cfs,...}/Makefile. Each t_*.c there is one standalone
# program, built against tests/guest/tlib into OUT:
#
#   make -C tests/<dir> [O=<outdir>]      build every t_*.c into <outdir>
#   make -C tests/<dir> check [O=...]     build, then run them here
#   make -C tests/<dir> clean [O=...]
#
# A relative O is taken relative to the repository root, an absolute one as
# is. The including Makefile sets what differs, before the include:
#   O ?= build/tests-<dir>   the default output directory
#   TEST_FILES := a.sh ...   other files of the directory copied to OUT
# The programs depend on every *.h of their directory and on tlib.h; the
# include path has tests/guest, for #include "tlib.h".

# The including Makefile is the one before this file in MAKEFILE_LIST.
TESTDIR := $(patsubst %/,%,$(dir $(abspath $(word $(words $(MAKEFILE_LIST)),_ $(MAKEFILE_LIST)))))
TOPDIR  := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
LIBDIR  := $(TOPDIR)/tests/guest
OUT     := $(if $(filter /%,$(O)),$(O),$(TOPDIR)/$(O))

ifeq ($(origin CC),default)
CC      := gcc
endif
CFLAGS  ?= -O2 -Wall -Wextra
CFLAGS  += -pthread -I$(LIBDIR)
LDFLAGS += -pthread -lm

SRCS    := $(sort $(wildcard $(TESTDIR)/t_*.c))
TESTS   := $(patsubst $(TESTDIR)/%.c,$(OUT)/%,$(SRCS))
HEADERS := $(sort $(wildcard $(TESTDIR)/*.h) $(LIBDIR)/tlib.h)
COPIES  := $(addprefix $(OUT)/,$(TEST_FILES))
TLIB_O  := $(OUT)/tlib.o

all: $(TESTS) $(COPIES)

$(TLIB_O): $(LIBDIR)/tlib.c $(LIBDIR)/tlib.h | $(OUT)
	$(CC) $(CFLAGS) -c -o $@ $<

$(OUT)/t_%: $(TESTDIR)/t_%.c $(HEADERS) $(TLIB_O) | $(OUT)
	$(CC) $(CFLAGS) -o $@ $< $(TLIB_O) $(LDFLAGS)

$(COPIES): $(OUT)/%: $(TESTDIR)/% | $(OUT)
	cp $< $@

$(OUT):
	mkdir -p $@

check: all
	$(LIBDIR)/run-suite.sh $(OUT)

clean:
	rm -f $(TESTS) $(TLIB_O) $(COPIES)

.PHONY: all check clean
