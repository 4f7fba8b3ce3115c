noinst_LIBRARIES += lib/libovs.a
lib_libovs_a_SOURCES = \
	lib/util.c lib/util.h

# Containers, hashing, strings, buffers.
lib_libovs_a_SOURCES +=

# Clock, logging, coverage counters.
lib_libovs_a_SOURCES +=

# Event loop, change sequences, threads.
lib_libovs_a_SOURCES +=

# Streams, TLS, reconnect, JSON-RPC.
lib_libovs_a_SOURCES +=

# unixctl, daemon support, directories, command-line helpers.
lib_libovs_a_SOURCES +=
