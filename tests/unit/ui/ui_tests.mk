# The command line: its parser and the man page's OPTIONS section, generated
# from the option table (make options-doc); test_options checks both.
check_PROGRAMS += tests/unit/ui/test_options
TESTS += tests/unit/ui/test_options
tests_unit_ui_test_options_SOURCES = tests/unit/ui/test_options.c $(UI_OPTION_FILES)
tests_unit_ui_test_options_CFLAGS = $(AM_CFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
# The same parsing through the real binary.
BATCH_TESTS += tests/batch/options.sh

noinst_PROGRAMS += tests/unit/ui/gen_options_doc
tests_unit_ui_gen_options_doc_SOURCES = tests/unit/ui/gen_options_doc.c $(UI_OPTION_FILES)
tests_unit_ui_gen_options_doc_LDADD = $(XBOW_LIBS)
options-doc: tests/unit/ui/gen_options_doc$(EXEEXT)
	tests/unit/ui/gen_options_doc$(EXEEXT) $(srcdir)/docs/xbow.1 > $(srcdir)/docs/xbow.1.tmp
	mv $(srcdir)/docs/xbow.1.tmp $(srcdir)/docs/xbow.1
.PHONY: options-doc
