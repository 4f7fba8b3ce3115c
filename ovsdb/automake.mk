# The OVSDB engine (a library the OVSDB programs share) and the programs:
# ovsdb-server, ovsdb-tool, ovsdb-client.  Each area keeps its own block.
noinst_LIBRARIES += ovsdb/libovsdb.a
ovsdb_libovsdb_a_SOURCES =
OVSDB_LIBS = ovsdb/libovsdb.a $(OVS_LIBS)

# Engine: rows, tables, databases, conditions, mutations, transactions.
ovsdb_libovsdb_a_SOURCES += \
	ovsdb/condition.c \
	ovsdb/condition.h \
	ovsdb/execution.c \
	ovsdb/execution.h \
	ovsdb/mutation.c \
	ovsdb/mutation.h \
	ovsdb/ovsdb.c \
	ovsdb/ovsdb.h \
	ovsdb/query.c \
	ovsdb/query.h \
	ovsdb/rbac.c \
	ovsdb/rbac.h \
	ovsdb/row.c \
	ovsdb/row.h \
	ovsdb/table.c \
	ovsdb/table.h \
	ovsdb/transaction.c \
	ovsdb/transaction.h

# Storage: the log file format and database files.
ovsdb_libovsdb_a_SOURCES += \
	ovsdb/log.c \
	ovsdb/log.h \
	ovsdb/file.c \
	ovsdb/file.h \
	ovsdb/cluster.c \
	ovsdb/cluster.h \
	ovsdb/raft-file.c \
	ovsdb/raft-file.h \
	ovsdb/raft-records.c \
	ovsdb/raft-records.h \
	ovsdb/raft-rpc.c \
	ovsdb/raft-rpc.h \
	ovsdb/raft.c \
	ovsdb/raft.h

# JSON-RPC server: remotes, sessions, methods, locks, triggers.
ovsdb_libovsdb_a_SOURCES += \
	ovsdb/convert.c \
	ovsdb/convert.h \
	ovsdb/jsonrpc-server.c \
	ovsdb/jsonrpc-server.h \
	ovsdb/server.c \
	ovsdb/server.h \
	ovsdb/trigger.c \
	ovsdb/trigger.h

# Active-backup replication and relay: ovsdb-server as another server's
# client.
ovsdb_libovsdb_a_SOURCES += \
	ovsdb/relay.c \
	ovsdb/relay.h \
	ovsdb/replication.c \
	ovsdb/replication.h \
	ovsdb/table-updates.c \
	ovsdb/table-updates.h

# Monitors: monitor, monitor_cond, monitor_cond_since.
ovsdb_libovsdb_a_SOURCES += \
	ovsdb/monitor.c \
	ovsdb/monitor.h \
	ovsdb/monitor-history.c \
	ovsdb/monitor-history.h \
	ovsdb/monitor-shape.c \
	ovsdb/monitor-shape.h

# ovsdb-server.
sbin_PROGRAMS += ovsdb/ovsdb-server
ovsdb_ovsdb_server_SOURCES = \
	ovsdb/ovsdb-server.c \
	ovsdb/server-config.c \
	ovsdb/server-config.h \
	ovsdb/server-db.c \
	ovsdb/server-db.h
ovsdb_ovsdb_server_LDADD = $(OVSDB_LIBS)
# The _Server schema is compiled in as a C string literal, so the server
# never depends on an installed data file.
EXTRA_DIST += ovsdb/_server.ovsschema
CLEANFILES += ovsdb/_server.ovsschema.inc
ovsdb/_server.ovsschema.inc: $(srcdir)/ovsdb/_server.ovsschema
	$(AM_V_GEN)$(MKDIR_P) ovsdb && \
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(srcdir)/ovsdb/_server.ovsschema > $@.tmp && mv $@.tmp $@
ovsdb/server-db.$(OBJEXT): ovsdb/_server.ovsschema.inc

# ovsdb-tool.
bin_PROGRAMS += ovsdb/ovsdb-tool
ovsdb_ovsdb_tool_SOURCES = ovsdb/ovsdb-tool.c
ovsdb_ovsdb_tool_LDADD = $(OVSDB_LIBS)

# ovsdb-client.
bin_PROGRAMS += ovsdb/ovsdb-client
ovsdb_ovsdb_client_SOURCES = \
	ovsdb/client-connect.c \
	ovsdb/client-connect.h \
	ovsdb/ovsdb-client.c
ovsdb_ovsdb_client_LDADD = $(OVSDB_LIBS)
