# Unit tests (Check) and the autotest suite.
UNIT_TEST_LIBS = $(OVS_LIBS) $(CHECK_LIBS)
UNIT_TEST_FLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)

# Check suites, one program per module: add "tests/unit/test-NAME" to
# UNIT_TESTS and define its _SOURCES, _CFLAGS = $(UNIT_TEST_FLAGS) and
# _LDADD = $(UNIT_TEST_LIBS).
UNIT_TESTS =

# Unit suites: containers, hashing, strings, buffers.
UNIT_TESTS +=

# Unit suites: clock, logging, coverage counters.
UNIT_TESTS +=

# Unit suites: event loop, change sequences, threads.
UNIT_TESTS +=

# Unit suites: streams, TLS, reconnect, JSON-RPC.
UNIT_TESTS +=

# Unit suites: unixctl, daemon support, directories.
UNIT_TESTS +=
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

# Helper programs the autotest suite runs (check_PROGRAMS += ...).

# Autotest suite.
TESTSUITE_AT = \
	tests/testsuite.at \
	tests/ovs-macros.at \
	tests/daemon.at \
	tests/jsonrpc.at
TESTSUITE = $(srcdir)/tests/testsuite
AUTOM4TE = autom4te
AUTOTEST = $(AUTOM4TE) -l autotest
EXTRA_DIST += $(TESTSUITE_AT) $(TESTSUITE) tests/atlocal.in tests/package.m4
DISTCLEANFILES += tests/atlocal

$(srcdir)/tests/package.m4: $(top_srcdir)/configure.ac
	$(AM_V_GEN){ \
	  echo '# Signature of the current package.'; \
	  echo 'm4_define([AT_PACKAGE_NAME],      [$(PACKAGE_NAME)])'; \
	  echo 'm4_define([AT_PACKAGE_TARNAME],   [$(PACKAGE_TARNAME)])'; \
	  echo 'm4_define([AT_PACKAGE_VERSION],   [$(PACKAGE_VERSION)])'; \
	  echo 'm4_define([AT_PACKAGE_STRING],    [$(PACKAGE_STRING)])'; \
	  echo 'm4_define([AT_PACKAGE_BUGREPORT], [$(PACKAGE_BUGREPORT)])'; \
	} > $@.tmp && mv $@.tmp $@

$(TESTSUITE): $(TESTSUITE_AT) $(srcdir)/tests/package.m4
	$(AM_V_GEN)$(AUTOTEST) -I '$(srcdir)' -I '$(srcdir)/tests' -o $@.tmp $@.at && mv $@.tmp $@

AUTOTEST_PATH = $(abs_builddir)/utilities:$(abs_builddir)/vswitchd:$(abs_builddir)/tests:$(abs_builddir)/ovsdb

# Runs after the Check suites in "make check".
check-local: tests/atlocal $(TESTSUITE) $(check_PROGRAMS) $(bin_PROGRAMS) $(sbin_PROGRAMS)
	$(SHELL) '$(TESTSUITE)' -C tests AUTOTEST_PATH='$(AUTOTEST_PATH)' $(TESTSUITEFLAGS)

clean-local:
	test ! -f '$(TESTSUITE)' || $(SHELL) '$(TESTSUITE)' -C tests --clean

# The unit suites under valgrind: any leak or invalid access fails.
check-valgrind: $(UNIT_TESTS)
	@set -e; for t in $(UNIT_TESTS); do \
	  echo "valgrind $$t"; \
	  CK_FORK=no $(VALGRIND) --quiet --leak-check=full --show-leak-kinds=definite,indirect,possible \
	    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=1 ./$$t >/dev/null; \
	done; echo "valgrind: no errors in $(words $(UNIT_TESTS)) unit suites"
.PHONY: check-valgrind
