noinst_LIBRARIES += lib/libovs.a
lib_libovs_a_SOURCES = \
	lib/util.c lib/util.h

# Containers, hashing, strings, buffers.
lib_libovs_a_SOURCES += \
	lib/list.h

# Clock, logging, coverage counters.
lib_libovs_a_SOURCES += \
	lib/timeval.h

# Event loop, change sequences, threads.
lib_libovs_a_SOURCES += \
	lib/poll-loop.h

# Streams, TLS, reconnect, JSON-RPC.
lib_libovs_a_SOURCES += \
	lib/jsonrpc.h

# unixctl, daemon support, directories, command-line helpers.
lib_libovs_a_SOURCES += \
	lib/unixctl.h
