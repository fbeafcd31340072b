# SPDX-License-Identifier: GPL-2.0-or-later
# The debugger's command declarations (FILE.cmds, beside the module's C
# file) into the C tables the module registers (FILE.cmds.h, a build
# product).  The format is in docs/declaring-commands.md ("Declaring a command").
#   awk -f scripts/cmds.awk FILE.cmds > FILE.cmds.h    one file's tables
#   awk -v check=1 -f scripts/cmds.awk FILES...        every file read, and a
#                                                      name declared in two of them
# A bad declaration is an error that names the file and line; the build stops.
# POSIX awk (Debian's mawk or gawk).

BEGIN {
    # The argument kinds of src/dbg/dbg.h (enum arg_kind), in lower case.
    split("count name expr location text list format locations word bool limit event " \
          "setting file cond string keyword", k, " ")
    for (i in k)
        kinds[k[i]] = 1
    # The flags of src/dbg/dbg.h (enum cmd_flags), in lower case.
    split("machine resumes exact norepeat setting", k, " ")
    for (i in k)
        flagnames[k[i]] = 1
    max_args = 4 # CMD_MAX_ARGS (src/dbg/dbg.h)
    failed = 0
    file = ""
}

function fail(msg, line) {
    printf "%s:%d: error: %s\n", fname, line ? line : FNR, msg | "cat 1>&2"
    failed = 1
    exit 1
}

# A C string literal of text (gsub's backslashes differ between awks: a loop).
function cstr(s,   out, i, ch) {
    out = ""
    for (i = 1; i <= length(s); i++) {
        ch = substr(s, i, 1)
        if (ch == "\\" || ch == "\"")
            out = out "\\" ch
        else if (ch == "\n")
            out = out "\\n"
        else
            out = out ch
    }
    return "\"" out "\""
}

function trim(s) {
    sub(/^[ \t]+/, "", s)
    sub(/[ \t]+$/, "", s)
    return s
}

function emit(s) {
    if (!check)
        print s
}

# #line: a C compiler's message about what follows names the declaration.
function at(line) {
    emit("#line " line " \"" fname "\"")
}

# The block of help or body lines ends: no trailing empty lines.
function end_block() {
    if (block == "")
        return
    while (nblock > 0 && blines[nblock] == "")
        nblock--
    if (nblock == 0)
        fail("\"" block "\" has no text (its lines follow it, indented by four spaces)", bline)
    text = ""
    for (i = 1; i <= nblock; i++)
        text = text (i > 1 ? "\n" : "") blines[i]
    if (block == "help") {
        help = text
        help_line = bline
    } else {
        body = text
        body_line = bline
    }
    block = ""
}

function reset_command() {
    cmd = ""
    aliases = ""
    handler = ""
    hkind = ""
    usage = ""
    body = ""
    help = ""
    flags = ""
    nargs = 0
    delete seen
}

# One command's row of the table, once it is read whole.
function end_command(   i, s, n) {
    end_block()
    if (cmd == "")
        return
    if (handler == "")
        fail("command \"" cmd "\" has no handler (\"run FUNCTION\" or \"fn FUNCTION\")", cmd_line)
    if (help == "")
        fail("command \"" cmd "\" has no help", cmd_line)
    if (hkind == "fn" && usage == "")
        fail("command \"" cmd "\": an \"fn\" handler needs a \"usage\" line", handler_line)
    if (hkind == "run" && usage != "")
        fail("command \"" cmd "\": the usage of a \"run\" handler is made from its arguments " \
             "(\"usage\" is for \"fn\")", usage_line)
    if (hkind == "fn" && nargs > 0)
        fail("command \"" cmd "\": declared arguments need a \"run\" handler (an \"fn\" handler " \
             "splits its line itself)", arg_line[1])
    at(cmd_line)
    emit("    {.name = " cstr(cmd) ",")
    if (aliases != "") {
        at(aliases_line)
        emit("     .aliases = " cstr(aliases) ",")
    }
    at(handler_line)
    emit("     ." hkind " = " handler ",")
    if (nargs > 0) {
        emit("     .nargs = " nargs ",")
        emit("     .args = (const cmd_arg[]){")
        for (i = 1; i <= nargs; i++) {
            at(arg_line[i])
            emit("         {" arg_c[i] "},")
        }
        emit("     },")
    }
    if (usage != "") {
        at(usage_line)
        emit("     .usage = " cstr(usage) ",")
    }
    if (body != "") {
        at(body_line)
        emit("     .body = " cstr(body) ",")
    }
    if (flags != "") {
        at(flags_line)
        emit("     .flags = " flags ",")
    }
    at(help_line)
    n = split(help, s, "\n")
    for (i = 1; i <= n; i++)
        emit((i == 1 ? "     .help = " : "             ") cstr(s[i] (i < n ? "\n" : "")) \
             (i == n ? "}," : ""))
    reset_command()
}

function end_table() {
    end_command()
    if (table != "" && ncmds == 0)
        fail("table " table " declares no command", table_line)
    if (table != "")
        emit("};")
    table = ""
}

# A name (or alias) declared once in all the files read.
function declare(name, what) {
    if (name in where)
        fail(what " \"" name "\" is declared twice (first at " where[name] ")")
    where[name] = fname ":" FNR
}

# arg KIND NAME[; ATTRIBUTE]...: one cmd_arg initializer.
function parse_arg(rest,   parts, n, i, kind, name, c, a, key, val, choices, sp) {
    n = split(rest, parts, ";")
    sp = index(parts[1], " ")
    if (sp == 0)
        fail("arg: want \"arg KIND NAME\" (then \"; ATTRIBUTE\"...)")
    kind = substr(parts[1], 1, sp - 1)
    name = trim(substr(parts[1], sp + 1))
    if (!(kind in kinds))
        fail("arg: unknown kind \"" kind "\" (src/dbg/dbg.h, enum arg_kind)")
    if (name == "")
        fail("arg: the argument has no name")
    c = ".kind = ARG_" toupper(kind) ", .name = " cstr(name)
    choices = ""
    for (i = 2; i <= n; i++) {
        a = trim(parts[i])
        sp = index(a, " ")
        key = sp ? substr(a, 1, sp - 1) : a
        val = sp ? trim(substr(a, sp + 1)) : ""
        if (key == "optional" && val == "")
            c = c ", .optional = true"
        else if ((key == "min" || key == "max") && val != "")
            c = c ", ." key " = " val
        else if (key == "default" && val != "")
            c = c ", .dflt = " val
        else if (key == "what" && val != "")
            c = c ", .what = " cstr(val)
        else if (key == "complete" && val != "")
            c = c ", .complete = " cstr(val)
        else if (key == "choices" && val != "")
            choices = val
        else
            fail("arg: unknown attribute \"" a "\" (optional, what TEXT, min N, max N, " \
                 "default N, choices A|B, complete WHAT)")
    }
    if (kind == "word" || kind == "keyword")
        c = c ", .choices = " cstr(choices != "" ? choices : name)
    else if (choices != "")
        fail("arg: choices are for the kinds word and keyword")
    if (nargs == max_args)
        fail("command \"" cmd "\" has more than " max_args " arguments (CMD_MAX_ARGS)")
    nargs++
    arg_c[nargs] = c
    arg_line[nargs] = FNR
}

FNR == 1 {
    if (file != "")
        end_table()
    file = FILENAME
    fname = FILENAME
    reset_command()
    block = ""
    if (!check) {
        emit("/* Generated by scripts/cmds.awk from " FILENAME ": edit that file. */")
    }
}

# Comments.
/^#/ { next }

# An empty line (or one of blanks): in a block, an empty line of its text.
/^[ \t]*$/ {
    if (block != "")
        blines[++nblock] = ""
    next
}

# The lines of a help or body block: indented by four spaces (or a tab).
/^(    |\t)/ {
    if (block == "")
        fail("an indented line belongs to a \"help\" or \"body\" block")
    line = $0
    if (!sub(/^    /, "", line))
        sub(/^\t/, "", line)
    blines[++nblock] = line
    next
}

/^[ \t]/ { fail("an indented line is indented by four spaces or a tab") }

{
    end_block()
    key = $1
    rest = $0
    sub(/^[^ \t]+[ \t]*/, "", rest)
    rest = trim(rest)
    if (key != "table" && key != "command" && cmd == "")
        fail("\"" key "\" outside a command (a command starts with \"command NAME\")")
    if (key == "table" || key == "command") {
        if (rest == "")
            fail("\"" key "\" needs a name")
    } else if (key in seen) {
        if (key != "arg")
            fail("command \"" cmd "\": \"" key "\" twice (first at line " seen[key] ")")
    } else {
        seen[key] = FNR
    }
    if (key == "table") {
        end_table()
        if (rest !~ /^[A-Za-z_][A-Za-z_0-9]*$/)
            fail("table: \"" rest "\" is not a C identifier")
        table = rest
        table_line = FNR
        ncmds = 0
        emit("static const command " table "[] = {")
    } else if (key == "command") {
        end_command()
        if (table == "")
            fail("command \"" rest "\" before any \"table NAME\"")
        cmd = rest
        cmd_line = FNR
        ncmds++
        declare(cmd, "command")
    } else if (key == "aliases") {
        n = split(rest, al, ",")
        aliases = ""
        for (i = 1; i <= n; i++) {
            al[i] = trim(al[i])
            if (al[i] == "")
                fail("aliases: an empty alias")
            declare(al[i], "alias")
            aliases = aliases (i > 1 ? "," : "") al[i]
        }
        aliases_line = FNR
    } else if (key == "run" || key == "fn") {
        if (handler != "")
            fail("command \"" cmd "\" has two handlers (\"run\" or \"fn\", not both)")
        if (rest !~ /^[A-Za-z_][A-Za-z_0-9]*$/)
            fail(key ": \"" rest "\" is not a C function name")
        handler = rest
        hkind = key
        handler_line = FNR
    } else if (key == "usage") {
        if (rest == "")
            fail("usage: the line is empty")
        usage = rest
        usage_line = FNR
    } else if (key == "arg") {
        parse_arg(rest)
    } else if (key == "flags") {
        n = split(rest, fl, " ")
        flags = ""
        for (i = 1; i <= n; i++) {
            if (!(fl[i] in flagnames))
                fail("flags: unknown flag \"" fl[i] "\" (machine, resumes, exact, norepeat, " \
                     "setting)")
            flags = flags (i > 1 ? " | " : "") "CMD_" toupper(fl[i])
        }
        if (flags == "")
            fail("flags: no flag named")
        flags_line = FNR
    } else if (key == "help" || key == "body") {
        if (rest != "")
            fail("\"" key "\": its text goes on the lines after it, indented by four spaces")
        block = key
        bline = FNR + 1
        nblock = 0
    } else {
        fail("unknown field \"" key "\" (table, command, aliases, run, fn, usage, arg, flags, " \
             "body, help)")
    }
}

END {
    if (failed)
        exit 1
    end_table()
}
