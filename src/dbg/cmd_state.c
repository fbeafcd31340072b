/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Machine state: info registers/fpu/tlb, x and xp, print, output, set,
 * disassemble, backtrace. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "dbg/dbg_int.h"
#include "dbg/source.h"

/* What a bare "x" continues from, and the last format (as gdb keeps them). */
typedef struct x_state {
    dbg_addr next;
    bool have_next;
    char fmt;
    unsigned size;
} xstate;

static xstate *xs(dbg *d)
{
    if (!d->xstate) {
        xstate *x = DBG_STATE(d, xstate);
        x->fmt = 'x';
        x->size = 4;
    }
    return d->xstate;
}

static void dbg_state_free(dbg *d)
{
    free(d->xstate);
    d->xstate = NULL;
}

static cpu *need_cpu(dbg *d)
{
    cpu *c = dbg_cpu(d);
    if (!c)
        dbg_error(d, "No CPU selected.");
    return c;
}

/* ---- registers ------------------------------------------------------------ */

static int show_with(dbg *d, void (*fn)(const cpu *, strbuf *))
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    strbuf b;
    sb_init(&b);
    fn(c, &b);
    return dbg_puts_sb(d, &b);
}

static int cmd_info_registers(dbg *d, const cmd_args *arg)
{
    const char *args = arg->text[0];
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    if (!*args && d->frame) { /* an outer frame: what it knows */
        strbuf b;
        sb_init(&b);
        dbg_show_frame_regs(d, c, &b);
        return dbg_puts_sb(d, &b);
    }
    if (!*args)
        return show_with(d, cpu_show_regs);
    int rc = 0;
    char w[64];
    for (const char *s = dbg_next_word(args, w, sizeof w); *w; s = dbg_next_word(s, w, sizeof w)) {
        const char *name = w[0] == '$' ? w + 1 : w;
        xval v;
        xerr err;
        int known = dbg_register_value(d, name, &v, &err);
        if (known < 0) {
            rc = dbg_error(d, "Invalid register `%s'.", name);
            continue;
        }
        if (!known) {
            dbg_printf(d, "%-15s<not saved>\n", name);
            continue;
        }
        strbuf b;
        sb_init(&b);
        sb_printf(&b, "%-15s0x%016llx  ", name, (unsigned long long)v.v);
        if (v.psize) { /* an address: where it points, as gdb shows $pc */
            char a[160];
            dbg_format_addr(d, (dbg_addr){v.v, false}, a, sizeof a);
            const char *lt = strchr(a, '<');
            sb_puts(&b, lt ? lt : a);
        } else {
            sb_printf(&b, "%lld", (long long)xval_signed(&v));
        }
        if (!strcasecmp(name, "status")) {
            sb_puts(&b, "  ");
            cpu_decode_status(v.v, &b);
        } else if (!strcasecmp(name, "cause")) {
            sb_puts(&b, "  ");
            cpu_decode_cause(v.v, &b);
        }
        sb_putc(&b, '\n');
        dbg_puts_sb(d, &b);
    }
    return rc;
}

static int cmd_info_all_registers(dbg *d, const cmd_args *a)
{
    if (cmd_info_registers(d, &(cmd_args){.text = {""}})) /* the selected frame's */
        return -1;
    return show_with(d, cpu_show_fpu);
}

static int cmd_info_fpu(dbg *d, const cmd_args *a) { return show_with(d, cpu_show_fpu); }

static int cmd_info_tlb(dbg *d, const cmd_args *a) { return show_with(d, cpu_show_tlb); }

/* ---- formats ----------------------------------------------------------------- */

typedef struct fmt {
    uint64_t count;
    char letter; /* x d u o t a c f s i */
    unsigned size;
} fmt;

/* "/4xw" (count, format, size in any order after the count). */
static int parse_fmt(dbg *d, const char **args, fmt *f, const char *cmd)
{
    const char *s = *args;
    if (*s != '/')
        return 0;
    s++;
    if (*s >= '0' && *s <= '9') {
        /* As in gdb, any count goes: the output is streamed and Ctrl-C
         * stops it. */
        errno = 0;
        f->count = strtoull(s, (char **)&s, 10);
        if (errno == ERANGE)
            return dbg_error(d, "%s: the count is too large.", cmd);
        if (!f->count)
            return dbg_error(d, "%s: a count of 0 shows nothing.", cmd);
    }
    for (; *s && *s != ' ' && *s != '\t'; s++) {
        if (strchr("xduotacfsi", *s))
            f->letter = *s;
        else if (*s == 'b' || *s == 'h' || *s == 'w' || *s == 'g')
            f->size = *s == 'b' ? 1 : *s == 'h' ? 2 : *s == 'w' ? 4 : 8;
        else
            return dbg_error(d, "Undefined output format \"%c\".", *s);
    }
    *args = dbg_skip_ws(s);
    return 0;
}

/* Binary: all `bits` digits when padding (x/t), else no leading zeros. */
static void format_bits(uint64_t v, unsigned bits, bool pad, strbuf *b)
{
    bool seen = pad;
    for (unsigned i = bits; i-- > 0;) {
        seen |= (v >> i) & 1 || i == 0;
        if (seen)
            sb_putc(b, (v >> i) & 1 ? '1' : '0');
    }
}

static void format_char(unsigned c, strbuf *b)
{
    if (c == '\n')
        sb_puts(b, "'\\n'");
    else if (c == '\t')
        sb_puts(b, "'\\t'");
    else if (c == '\\' || c == '\'')
        sb_printf(b, "'\\%c'", c);
    else if (c >= 32 && c < 127)
        sb_printf(b, "'%c'", c);
    else
        sb_printf(b, "'\\%03o'", c & 0xff);
}

static void format_value(dbg *d, const xval *v, char letter, bool pad, strbuf *b)
{
    unsigned bits = v->size * 8u;
    uint64_t u = v->v & MASK(bits);
    switch (letter) {
    case 'x': sb_printf(b, "0x%llx", (unsigned long long)u); break;
    case 'd':
        sb_printf(b, "%lld", (long long)xval_signed(&(xval){.v = u, .size = v->size, .sgn = true}));
        break;
    case 'u': sb_printf(b, "%llu", (unsigned long long)u); break;
    case 'o': sb_printf(b, "0%llo", (unsigned long long)u); break;
    case 't': format_bits(u, bits, pad, b); break;
    case 'c':
        sb_printf(b, "%u ", (unsigned)(u & 0xff));
        format_char((unsigned)u & 0xff, b);
        break;
    case 'a': {
        char a[160];
        dbg_format_addr(d, (dbg_addr){u, false}, a, sizeof a);
        sb_puts(b, a);
        break;
    }
    default:
        if (v->psize) {
            char a[160];
            dbg_format_addr(d, (dbg_addr){v->v, false}, a, sizeof a);
            sb_puts(b, a);
        } else if (v->sgn) {
            sb_printf(b, "%lld", (long long)xval_signed(v));
        } else {
            sb_printf(b, "%llu", (unsigned long long)u);
        }
    }
}

/* ---- print, output, set ----------------------------------------------------- */

static int eval_for_print(dbg *d, const char *args, xval *v, char **ident)
{
    xerr err;
    *ident = NULL;
    expr *e = expr_parse(args, NULL, &err);
    if (!e)
        return dbg_error(d, "%s", err.msg);
    int rc = dbg_eval_expr(d, e, d->scope, v, &err);
    if (rc == 0 && expr_single_ident(e))
        *ident = xstrdup(expr_single_ident(e));
    expr_free(e);
    if (rc)
        return dbg_error(d, "%s", err.msg);
    return 0;
}

/* A bare device register prints in hex with its decoded fields. */
static bool device_register_suffix(dbg *d, const char *ident, const xval *v, char letter, strbuf *b)
{
    dev_ref r;
    xerr err;
    if (!ident || dbg_dev_ref(d, ident, &r, &err) <= 0)
        return false;
    const reg_decl *rd = &r.dev->cls->regs[r.id];
    if (!letter)
        sb_printf(b, "0x%0*llx", r.field ? 1 : rd->width * 2, (unsigned long long)v->v);
    else
        format_value(d, v, letter, false, b);
    if (!r.field && rd->fields) {
        sb_puts(b, "  [");
        dev_format_fields(rd, v->v, b);
        sb_putc(b, ']');
    }
    return true;
}

/* fmt_arg: the /F argument ("" without one); text: the expression, or NULL
 * for what follows the format in fmt (a whole line: dbg_output). */
static int print_common(dbg *d, const char *fmt_arg, const char *text, bool history)
{
    fmt f = {0};
    if (parse_fmt(d, &fmt_arg, &f, "print"))
        return -1;
    const char *args = text ? text : fmt_arg;
    if (f.letter == 's' || f.letter == 'i' || f.letter == 'f')
        return dbg_error(d, "print: format \"%c\" is for x (examine memory).", f.letter);
    xval v;
    char *ident = NULL;
    if (!*args) {
        if (!history)
            return dbg_error(d, "output: give an expression.");
        if (dbg_eval(d, "$", &v))
            return -1;
    } else if (eval_for_print(d, args, &v, &ident)) {
        return -1;
    }
    strbuf b;
    sb_init(&b);
    if (history)
        sb_printf(&b, "$%u = ", dbg_history_add(d, v));
    if (v.type) /* a value of a C type from the debug information */
        dbg_format_typed(d, &v, f.letter, true, &b);
    else if (!device_register_suffix(d, ident, &v, f.letter, &b))
        format_value(d, &v, f.letter, false, &b);
    if (history)
        sb_putc(&b, '\n');
    dbg_puts_sb(d, &b);
    free(ident);
    return 0;
}

static int cmd_print(dbg *d, const cmd_args *a)
{
    return print_common(d, a->text[0], a->text[1], true);
}
static int cmd_output(dbg *d, const cmd_args *a)
{
    return print_common(d, a->text[0], a->text[1], false);
}

int dbg_assign(dbg *d, const char *args)
{
    if (!*args)
        return dbg_error(d, "set: give an assignment: set $REG = EXPR, set *ADDR = EXPR.");
    xval v;
    xerr err;
    expr *e = expr_parse(args, NULL, &err);
    if (!e)
        return dbg_error(d, "%s", err.msg);
    if (!expr_is_assignment(e)) {
        expr_free(e);
        return dbg_error(d, "set: \"%s\" assigns nothing (want LVALUE = EXPR).", args);
    }
    int rc = dbg_eval_expr(d, e, d->scope, &v, &err);
    expr_free(e);
    if (rc)
        return dbg_error(d, "%s", err.msg);
    return 0;
}

/* "set WORD ...": the settings xbow has are commands of their own ("set
 * logging" ...); here are assignments, gdb settings xbow does not have,
 * and words that are neither. */
static int cmd_set(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    char w[64];
    const char *rest = dbg_next_word(args, w, sizeof w);
    bool word = isalpha((unsigned char)w[0]);
    for (const char *p = w; *p && word; p++)
        word = isalnum((unsigned char)*p) || *p == '_' || *p == '-';
    if (!word || (rest[0] == '=' && rest[1] != '='))
        return dbg_assign(d, args);
    if (dbg_setting_unsupported(d, "set", w))
        return -1;
    xerr err;
    expr *e = *rest ? expr_parse(args, NULL, &err) : NULL;
    if (*rest && !e)
        return dbg_error(d,
                         "set %s: xbow has no such setting (\"show\" lists them), and "
                         "\"%s\" is not an assignment (set LVALUE = EXPR).",
                         w, args);
    expr_free(e);
    return dbg_assign(d, args);
}

static int cmd_set_variable(dbg *d, const cmd_args *a) { return dbg_assign(d, a->text[0]); }

/* ---- examining memory -------------------------------------------------------- */

/* One instruction; "=> " marks `mark`, the selected frame's pc (~0: none). */
static void disasm_line(dbg *d, uint64_t mark, uint64_t pc, uint32_t insn, const char *label,
                        bool raw, strbuf *b)
{
    char dis[160];
    cpu_disasm(pc, insn, &d->m->syms, dis, sizeof dis);
    sb_printf(b, "%s0x%016llx%s:\t", pc == mark ? "=> " : "   ", (unsigned long long)pc, label);
    if (raw)
        sb_printf(b, "%02x %02x %02x %02x\t", insn >> 24, (insn >> 16) & 0xff, (insn >> 8) & 0xff,
                  insn & 0xff);
    sb_printf(b, "%s\n", dis);
}

static void sym_label(dbg *d, uint64_t a, char *buf, size_t len)
{
    uint64_t off;
    const symbol *s = symtab_lookup_addr(&d->m->syms, a, &off);
    if (!s)
        buf[0] = 0;
    else if (off)
        snprintf(buf, len, " <%s+0x%llx>", s->name, (unsigned long long)off);
    else
        snprintf(buf, len, " <%s>", s->name);
}

/* fmt_arg: the /NFU argument ("" without one); addr: the address, or NULL for
 * what follows the format in fmt (a whole line: dbg_examine). */
static int examine(dbg *d, const char *fmt_arg, const char *addr, bool phys)
{
    xstate *x = xs(d);
    fmt f = {1, x->fmt, x->size};
    if (parse_fmt(d, &fmt_arg, &f, phys ? "xp" : "x"))
        return -1;
    const char *args = addr ? addr : fmt_arg;
    if (f.letter == 'a')
        f.size = 8;
    if (f.letter == 'c')
        f.size = 1;
    if (f.letter == 'i')
        f.size = 4;
    if (f.letter == 'f' && f.size != 4 && f.size != 8)
        f.size = 8;
    dbg_addr a;
    if (*args) {
        const char *end;
        if (dbg_parse_phys(d, phys ? "xp" : NULL, args, &end, &a))
            return -1;
        if (*dbg_skip_ws(end))
            return dbg_error(d, "Junk at end of arguments: \"%s\".", dbg_skip_ws(end));
    } else if (x->have_next) {
        a = x->next;
    } else {
        return dbg_error(d, "Argument required (starting address).");
    }
    x->fmt = f.letter;
    x->size = f.size;
    cpu *c = dbg_cpu(d);
    uint64_t mark = c && f.letter == 'i' ? dbg_frame_pc(d, c) : ~0ull;
    strbuf b;
    sb_init(&b);
    xerr err = {0};
    unsigned per_line = f.letter == 'i' || f.letter == 's' ? 1
                        : f.size == 8                      ? 2
                        : f.size == 4                      ? 4
                                                           : 8;
    uint64_t last = 0;
    dbg_addr last_addr = a;
    bool stopped = false;
    for (uint64_t i = 0; i < f.count; i++) {
        if (dbg_stream(d, &b)) {
            stopped = true;
            break;
        }
        last_addr = a;
        char label[160];
        if (a.phys)
            snprintf(label, sizeof label, "p:0x%010llx", (unsigned long long)a.a);
        else {
            char sl[140];
            sym_label(d, a.a, sl, sizeof sl);
            snprintf(label, sizeof label, "0x%016llx%s", (unsigned long long)a.a, sl);
        }
        if (f.letter == 's') {
            char str[512];
            unsigned n = 0;
            uint8_t ch = 1;
            while (n < sizeof str - 1 &&
                   dbg_read(d, (dbg_addr){a.a + n, a.phys}, &ch, 1, &err) == 0 && ch)
                str[n++] = (char)ch;
            if (n == 0 && err.msg[0])
                break;
            err.msg[0] = 0;
            str[n] = 0;
            sb_printf(&b, "%s:\t\"", label);
            for (unsigned k = 0; k < n; k++) {
                unsigned ck = (unsigned char)str[k];
                if (ck == '"' || ck == '\\')
                    sb_printf(&b, "\\%c", ck);
                else if (ck >= 32 && ck < 127)
                    sb_putc(&b, (char)ck);
                else
                    sb_printf(&b, "\\%03o", ck);
            }
            sb_printf(&b, "\"%s\n", n == sizeof str - 1 ? "..." : "");
            a.a += n + 1;
            continue;
        }
        uint8_t buf[8];
        if (dbg_read(d, a, buf, f.size, &err))
            break;
        uint64_t v = load_be(buf, f.size);
        last = v;
        if (f.letter == 'i') {
            char sl[140];
            sym_label(d, a.a, sl, sizeof sl);
            disasm_line(d, a.phys || !c ? ~0ull : mark, a.a, (uint32_t)v, sl, false, &b);
            a.a += 4;
            continue;
        }
        if (i % per_line == 0)
            sb_printf(&b, "%s%s:", i ? "\n" : "", label);
        sb_putc(&b, '\t');
        if (f.letter == 'f') {
            if (f.size == 4) {
                float fv;
                uint32_t w = (uint32_t)v;
                memcpy(&fv, &w, 4);
                sb_printf(&b, "%g", (double)fv);
            } else {
                double dv;
                memcpy(&dv, &v, 8);
                sb_printf(&b, "%g", dv);
            }
        } else if (f.letter == 'x') {
            sb_printf(&b, "0x%0*llx", (int)f.size * 2, (unsigned long long)v);
        } else {
            xval xv = {.v = v, .size = (uint8_t)f.size, .sgn = f.letter == 'd'};
            format_value(d, &xv, f.letter, true, &b);
        }
        a.a += f.size;
    }
    if (b.len && b.s[b.len - 1] != '\n')
        sb_putc(&b, '\n');
    dbg_puts_sb(d, &b);
    x->next = a;
    x->have_next = true;
    /* Enter goes on from the next address with the same count and format. */
    char again[32];
    const char *unit = strchr("isac", f.letter) ? ""
                       : f.size == 1            ? "b"
                       : f.size == 2            ? "h"
                       : f.size == 4            ? "w"
                                                : "g";
    snprintf(again, sizeof again, "%s/%llu%c%s", phys ? "xp" : "x", (unsigned long long)f.count,
             f.letter, unit);
    dbg_set_repeat(d, again);
    dbg_var_set(d, "_", last_addr.phys ? xval_uns(last_addr.a) : xval_ptr(last_addr.a, f.size));
    dbg_var_set(d, "__", xval_uns(last));
    if (stopped)
        return dbg_interrupt_error(d);
    if (err.msg[0])
        return dbg_error(d, "%s", err.msg);
    return 0;
}

static int cmd_x(dbg *d, const cmd_args *a) { return examine(d, a->text[0], a->text[1], false); }
int dbg_examine(dbg *d, const char *line) { return examine(d, line, NULL, false); }
int dbg_output(dbg *d, const char *line) { return print_common(d, line, NULL, false); }
static int cmd_xp(dbg *d, const cmd_args *a) { return examine(d, a->text[0], a->text[1], true); }

/* ---- disassemble and backtrace ----------------------------------------------- */

static int cmd_disassemble(dbg *d, const cmd_args *arg)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    bool raw = arg->given[0];
    const char *args = arg->text[1];
    uint64_t start, end;
    const symbol *fn = NULL;
    uint64_t pc = dbg_frame_pc(d, c), at = pc;
    bool range = false;
    if (*args) {
        const char *rest;
        xval v;
        if (dbg_eval_prefix(d, args, &rest, &v))
            return -1;
        at = v.v;
        rest = dbg_skip_ws(rest);
        if (*rest == ',') {
            range = true;
            rest = dbg_skip_ws(rest + 1);
            bool plus = *rest == '+';
            xval e;
            if (dbg_eval(d, plus ? rest + 1 : rest, &e))
                return -1;
            start = at;
            end = plus ? at + e.v : e.v;
            if (end <= start)
                return dbg_error(d, "disassemble: the end 0x%llx is not after the start.",
                                 (unsigned long long)end);
            if (end - start > 4 * 65536)
                return dbg_error(d, "disassemble: %llu bytes is too much at once.",
                                 (unsigned long long)(end - start));
        } else if (*rest) {
            return dbg_error(d, "Junk at end of arguments: \"%s\".", rest);
        }
    }
    strbuf b;
    sb_init(&b);
    if (!range) {
        uint64_t off;
        fn = symtab_lookup_addr(&d->m->syms, at, &off);
        if (fn) {
            start = fn->addr;
            end = fn->size ? fn->addr + fn->size : 0;
            if (!end) { /* no size: up to where the symbol table says the next one starts */
                end = start + 4;
                while (end - start < 4096 * 4) {
                    uint64_t o;
                    if (symtab_lookup_addr(&d->m->syms, end, &o) != fn)
                        break;
                    end += 4;
                }
            }
            if (end - start > 4096 * 4)
                end = start + 4096 * 4;
            sb_printf(&b, "Dump of assembler code for function %s:\n", fn->name);
        } else {
            start = at;
            end = at + 16 * 4;
        }
    }
    if (!fn)
        sb_printf(&b, "Dump of assembler code from 0x%llx to 0x%llx:\n", (unsigned long long)start,
                  (unsigned long long)end);
    xerr err = {0};
    bool stopped = false;
    for (uint64_t a = start & ~3ull; a < end; a += 4) {
        if (dbg_stream(d, &b)) {
            stopped = true;
            break;
        }
        uint8_t buf[4];
        if (dbg_read(d, (dbg_addr){a, false}, buf, 4, &err))
            break;
        char label[160];
        if (fn)
            snprintf(label, sizeof label, " <+%llu>", (unsigned long long)(a - fn->addr));
        else
            sym_label(d, a, label, sizeof label);
        disasm_line(d, pc, a, (uint32_t)load_be(buf, 4), label, raw, &b);
    }
    if (!err.msg[0] && !stopped)
        sb_puts(&b, "End of assembler dump.\n");
    dbg_puts_sb(d, &b);
    if (stopped)
        return dbg_interrupt_error(d);
    if (err.msg[0])
        return dbg_error(d, "%s", err.msg);
    return 0;
}

static int cmd_backtrace(dbg *d, const cmd_args *a)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    uint64_t max = a->num[0];
    if (max > 1024)
        max = 1024;
    src_frame *f = xcalloc(max, sizeof *f);
    unsigned n = dbg_src_frames(d, c, f, (unsigned)max);
    strbuf b;
    sb_init(&b);
    for (unsigned i = 0; i < n; i++)
        dbg_src_format_frame(d, c, &f[i], i > 0 && f[i - 1].inlined, &b);
    dbg_puts_sb(d, &b);
    free(f);
    return 0;
}

#include "dbg/cmd_state.cmds.h"

const dbg_module dbg_state_module = {
    .name = "state",
    .commands = DBG_COMMANDS("Machine state", state_commands),
    .free = dbg_state_free,
};
