/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the QLogic ISP1040B model and the SCSI disk behind it
 * (src/dev/scsi): driven as qla1280 drives them, on a fake PCI host, with
 * a disk image in a temporary file. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "dev/scsi/isp.h"
#include "../nic/nic_fake.h"
#include "../../check_run.h"

#define REQ_BASE (FAKE_HI + 0x10000)  /* 255 entries */
#define RESP_BASE (FAKE_HI + 0x20000) /* 63 entries */
#define DATA (FAKE_HI + 0x40000)      /* data buffers */
#define DISK_BLOCKS 2048              /* 1 MB */

typedef struct rig {
    sched clock;
    event_bus eb;
    fake_host host;
    isp *s;
    char path[64];
    unsigned req_in, resp_out;
    uint32_t next_handle;
} rig;

static uint16_t rd(rig *r, unsigned off)
{
    uint64_t v = 0;
    ck_assert_int_eq(pci_bar_access(isp_func(r->s), 0, 1, off, 2, &v, false), BUS_OK);
    return (uint16_t)v;
}

static void wr(rig *r, unsigned off, uint16_t v)
{
    uint64_t x = v;
    ck_assert_int_eq(pci_bar_access(isp_func(r->s), 0, 1, off, 2, &x, true), BUS_OK);
}

static void make_image(rig *r, uint64_t size)
{
    snprintf(r->path, sizeof r->path, "/tmp/xbow-isp-test-%d.img", (int)getpid());
    int fd = open(r->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    uint8_t blk[SCSI_BLOCK];
    for (uint64_t b = 0; b < size / SCSI_BLOCK; b++) {
        for (unsigned i = 0; i < SCSI_BLOCK; i++)
            blk[i] = (uint8_t)(b * 7 + i);
        ck_assert_int_eq(pwrite(fd, blk, sizeof blk, (off_t)(b * SCSI_BLOCK)), SCSI_BLOCK);
    }
    close(fd);
}

static void rig_init(rig *r, bool ro)
{
    memset(r, 0, sizeof *r);
    sched_init(&r->clock, XBOW_CPU_HZ);
    event_bus_init(&r->eb, &r->clock.now);
    fake_host_init(&r->host, &r->clock, 1 << 20);
    r->s = isp_new("isp0", &r->eb, &r->clock);
    fake_host_plug(&r->host, isp_func(r->s));
    make_image(r, DISK_BLOCKS * SCSI_BLOCK);
    xerr e;
    scsi_disk *d = scsi_disk_open(r->path, ro, &e);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(isp_attach_disk(r->s, 1, d, &e), 0);
}

static void rig_free(rig *r)
{
    device *d = isp_device(r->s);
    isp_free(r->s);
    device_free(d);
    fake_host_free(&r->host);
    event_bus_free(&r->eb);
    unlink(r->path);
}

/* A mailbox command as qla1280_mailbox_command issues it: returns mb0, the
 * outgoing mailboxes in mb. */
static uint16_t mbox(rig *r, uint16_t *mb, unsigned mask)
{
    for (unsigned i = 0; i < 8; i++)
        if (mask & (1u << i))
            wr(r, ISP_MAILBOX(i), mb[i]);
    unsigned rises = fake_irq_rises(&r->host);
    wr(r, ISP_HCCR, 0x5000);
    ck_assert_uint_eq(rd(r, ISP_HCCR) & ISP_HCCR_HOST_INT, ISP_HCCR_HOST_INT);
    run_for(&r->clock, sched_ns_to_ticks(&r->clock, 100000));
    ck_assert_uint_gt(fake_irq_rises(&r->host), rises); /* the interrupt came */
    ck_assert_uint_eq(rd(r, ISP_SEMAPHORE) & 1, 1);
    ck_assert_uint_eq(rd(r, ISP_ISTATUS) & ISP_IST_RISC_INT, ISP_IST_RISC_INT);
    for (unsigned i = 0; i < 8; i++)
        mb[i] = rd(r, ISP_MAILBOX(i));
    wr(r, ISP_SEMAPHORE, 0);
    wr(r, ISP_HCCR, 0x7000);
    ck_assert(!r->host.level);
    return mb[0];
}

static uint16_t mbox1(rig *r, uint16_t cmd, uint16_t a1)
{
    uint16_t mb[8] = {cmd, a1};
    return mbox(r, mb, 3);
}

/* The chip diagnostic of qla1280_chip_diag. */
static void chip_diag(rig *r)
{
    wr(r, ISP_ICTRL, ISP_ICTRL_RESET);
    ck_assert_uint_eq(rd(r, ISP_ICTRL) & ISP_ICTRL_RESET, 0);
    wr(r, ISP_CFG_1, 0);
    wr(r, ISP_HCCR, 0xb000);
    ck_assert_uint_ne(rd(r, ISP_MAILBOX(0)), ISP_MBS_BUSY);
    ck_assert_uint_eq(rd(r, ISP_MAILBOX(1)), 0x4953);
    ck_assert_uint_eq(rd(r, ISP_MAILBOX(2)), 0x5020);
    ck_assert_uint_eq(rd(r, ISP_MAILBOX(3)), 0x2020);
    ck_assert_uint_eq(rd(r, ISP_MAILBOX(4)), 1);
    wr(r, ISP_ICTRL, ISP_ICTRL_EN_INT | ISP_ICTRL_EN_RISC);
}

static const uint16_t fw_words[ISP_FW_WORDS] = {'X' | 'B' << 8, 'O' | 'W' << 8,
                                                'I' | 'S' << 8, 'P' | '1' << 8,
                                                '0' | '4' << 8, '0' | 'H' << 8,
                                                'L' | 'E' << 8, 0,
                                                ISP_FW_WORDS,   0};

static uint16_t fw_sum_word(void)
{
    uint16_t s = 0;
    for (unsigned i = 0; i + 1 < ISP_FW_WORDS; i++)
        s = (uint16_t)(s + fw_words[i]);
    return (uint16_t)-s;
}

static void load_fw(rig *r, uint16_t start, bool corrupt)
{
    for (unsigned i = 0; i < ISP_FW_WORDS; i++) {
        uint16_t w = i + 1 == ISP_FW_WORDS ? fw_sum_word() : fw_words[i];
        if (corrupt && i == 3)
            w ^= 0x100;
        uint16_t mb[8] = {ISP_MBC_WRITE_RAM_WORD, (uint16_t)(start + i), w};
        ck_assert_uint_eq(mbox(r, mb, 7), ISP_MBS_OK);
    }
}

static void init_queues(rig *r)
{
    uint16_t mb[8] = {ISP_MBC_INIT_REQUEST_QUEUE_A64,
                      255,
                      (uint16_t)(REQ_BASE >> 16),
                      (uint16_t)REQ_BASE,
                      0,
                      0,
                      (uint16_t)(REQ_BASE >> 48),
                      (uint16_t)(REQ_BASE >> 32)};
    ck_assert_uint_eq(mbox(r, mb, 0xdf), ISP_MBS_OK);
    uint16_t mr[8] = {ISP_MBC_INIT_RESPONSE_QUEUE_A64,
                      63,
                      (uint16_t)(RESP_BASE >> 16),
                      (uint16_t)RESP_BASE,
                      0,
                      0,
                      (uint16_t)(RESP_BASE >> 48),
                      (uint16_t)(RESP_BASE >> 32)};
    ck_assert_uint_eq(mbox(r, mr, 0xef), ISP_MBS_OK);
}

static void bring_up(rig *r)
{
    chip_diag(r);
    load_fw(r, 0x1000, false);
    ck_assert_uint_eq(mbox1(r, ISP_MBC_VERIFY_CHECKSUM, 0x1000), ISP_MBS_OK);
    ck_assert_uint_eq(mbox1(r, ISP_MBC_EXECUTE_FIRMWARE, 0x1000), ISP_MBS_OK);
    init_queues(r);
}

typedef struct reply {
    bool fast;
    uint32_t handle;
    uint8_t e[ISP_IOCB_SIZE];
} reply;

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void put32(uint8_t *p, uint32_t v)
{
    put16(p, (uint16_t)v);
    put16(p + 2, (uint16_t)(v >> 16));
}
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }

static void post(rig *r, const uint8_t *e)
{
    memcpy(fake_ptr(&r->host, REQ_BASE + r->req_in * 64ull, 64), e, 64);
    r->req_in = (r->req_in + 1) % 255;
}

/* Wait for one completion (status IOCB or fast post), as qla1280_isr takes it. */
static void wait_reply(rig *r, reply *out)
{
    memset(out, 0, sizeof *out);
    for (int tries = 0; tries < 5000; tries++) { /* 500 ms */
        run_for(&r->clock, sched_ns_to_ticks(&r->clock, 100000));
        if (!(rd(r, ISP_ISTATUS) & ISP_IST_RISC_INT))
            continue;
        uint16_t mb5 = rd(r, ISP_MAILBOX(5));
        if (rd(r, ISP_SEMAPHORE) & 1) {
            ck_assert_uint_eq(rd(r, ISP_MAILBOX(0)), ISP_MBA_FAST_POST);
            out->fast = true;
            out->handle = rd(r, ISP_MAILBOX(1)) | (uint32_t)rd(r, ISP_MAILBOX(2)) << 16;
            wr(r, ISP_SEMAPHORE, 0);
            wr(r, ISP_HCCR, 0x7000);
            return;
        }
        wr(r, ISP_HCCR, 0x7000);
        if (mb5 == r->resp_out)
            continue;
        memcpy(out->e, fake_ptr(&r->host, RESP_BASE + r->resp_out * 64ull, 64), 64);
        out->handle = get32(out->e + 4);
        r->resp_out = (r->resp_out + 1) % 63;
        wr(r, ISP_MAILBOX(5), (uint16_t)r->resp_out);
        return;
    }
    ck_abort_msg("no completion");
}

/* One A64 command with one data segment of len bytes at DATA. */
static void scsi(rig *r, unsigned target, const uint8_t *cdb, unsigned cdb_len, unsigned dir,
                 uint32_t len, reply *out)
{
    uint8_t e[64] = {ISP_ET_COMMAND_A64, 1};
    uint32_t h = r->next_handle++;
    put32(e + 4, h);
    e[9] = (uint8_t)target;
    put16(e + 10, (uint16_t)cdb_len);
    put16(e + 12, (uint16_t)(dir == 1 ? ISP_CF_DATA_IN : dir == 2 ? ISP_CF_DATA_OUT : 0));
    put16(e + 18, len ? 1 : 0);
    memcpy(e + 20, cdb, cdb_len);
    put32(e + 40, (uint32_t)DATA);
    put32(e + 44, (uint32_t)(DATA >> 32));
    put32(e + 48, len);
    post(r, e);
    wr(r, ISP_MAILBOX(4), (uint16_t)r->req_in);
    wait_reply(r, out);
    ck_assert_uint_eq(out->handle, h);
}

static uint8_t status_of(const reply *p) { return p->fast ? 0 : (uint8_t)get16(p->e + 8); }
static uint16_t comp_of(const reply *p) { return p->fast ? 0 : get16(p->e + 10); }
/* sense key / ASC of a CHECK CONDITION reply */
static unsigned sense_of(const reply *p)
{
    ck_assert(!p->fast);
    ck_assert_uint_eq(get16(p->e + 8) & 0xff, SCSI_CHECK_CONDITION);
    ck_assert_uint_ge(get16(p->e + 18), 14);
    return (unsigned)(p->e[32 + 2] & 0xf) << 8 | p->e[32 + 12];
}

static uint8_t *data(rig *r) { return fake_ptr(&r->host, DATA, 256 * 1024); }

START_TEST(isp_chip_diag_and_rom)
{
    rig r;
    rig_init(&r, false);
    chip_diag(&r);
    uint16_t mb[8] = {
        ISP_MBC_REGISTER_TEST, 0xaaaa, 0x5555, 0xaa55, 0x55aa, 0xa5a5, 0x5a5a, 0x2525};
    ck_assert_uint_eq(mbox(&r, mb, 0xff), ISP_MBS_OK);
    ck_assert_uint_eq(mb[1], 0xaaaa);
    ck_assert_uint_eq(mb[5], 0xa5a5);
    ck_assert_uint_eq(mb[7], 0x2525);
    /* The ROM knows no firmware commands. */
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_SET_INITIATOR_ID, 7), ISP_MBS_INVALID);
    /* RAM words round-trip. */
    uint16_t w[8] = {ISP_MBC_WRITE_RAM_WORD, 0x2345, 0xbeef};
    ck_assert_uint_eq(mbox(&r, w, 7), ISP_MBS_OK);
    uint16_t q[8] = {ISP_MBC_READ_RAM_WORD, 0x2345};
    ck_assert_uint_eq(mbox(&r, q, 3), ISP_MBS_OK);
    ck_assert_uint_eq(q[2], 0xbeef);
    /* No interrupt while the enables are off; the status bit still shows. */
    wr(&r, ISP_ICTRL, 0);
    wr(&r, ISP_HCCR, 0x5000);
    run_for(&r.clock, sched_ns_to_ticks(&r.clock, 100000));
    ck_assert(!r.host.level);
    ck_assert_uint_eq(rd(&r, ISP_ISTATUS), ISP_IST_RISC_INT);
    wr(&r, ISP_ICTRL, ISP_ICTRL_EN_INT | ISP_ICTRL_EN_RISC);
    ck_assert(r.host.level);
    rig_free(&r);
}
END_TEST

START_TEST(isp_firmware_checked)
{
    rig r;
    rig_init(&r, false);
    chip_diag(&r);
    load_fw(&r, 0x1000, true);
    uint16_t mb[8] = {ISP_MBC_VERIFY_CHECKSUM, 0x1000};
    ck_assert_uint_eq(mbox(&r, mb, 3), ISP_MBS_ERROR);
    ck_assert_uint_ne(mb[1], 0); /* the sum */
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_EXECUTE_FIRMWARE, 0x1000), ISP_MBS_ERROR);
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_INIT_REQUEST_QUEUE, 255), ISP_MBS_INVALID);
    load_fw(&r, 0x1000, false);
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_VERIFY_CHECKSUM, 0x1000), ISP_MBS_OK);
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_EXECUTE_FIRMWARE, 0x2000), ISP_MBS_ERROR);
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_EXECUTE_FIRMWARE, 0x1000), ISP_MBS_OK);
    uint16_t about[8] = {ISP_MBC_ABOUT_FIRMWARE};
    ck_assert_uint_eq(mbox(&r, about, 1), ISP_MBS_OK);
    ck_assert_uint_eq(about[1], 1);
    /* Parameters qla1280 sets; bad ones refused. */
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_SET_INITIATOR_ID, 7), ISP_MBS_OK);
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_SET_INITIATOR_ID, 99), ISP_MBS_PARAM_ERR);
    uint16_t tp[8] = {ISP_MBC_SET_TARGET_PARAMS, 3 << 8, 0xed00, 0x0c0a};
    ck_assert_uint_eq(mbox(&r, tp, 0xf), ISP_MBS_OK);
    uint16_t gp[8] = {ISP_MBC_GET_TARGET_PARAMS, 3 << 8};
    ck_assert_uint_eq(mbox(&r, gp, 3), ISP_MBS_OK);
    ck_assert_uint_eq(gp[2], 0xed00);
    ck_assert_uint_eq(gp[3], 0); /* asynchronous */
    ck_assert_uint_eq(mbox1(&r, 0x7f, 0), ISP_MBS_INVALID);
    uint16_t bq[8] = {ISP_MBC_INIT_REQUEST_QUEUE_A64, 255, 0, 0, 300};
    ck_assert_uint_eq(mbox(&r, bq, 0x1f), ISP_MBS_PARAM_ERR);
    init_queues(&r);
    rig_free(&r);
}
END_TEST

START_TEST(isp_scsi_commands)
{
    rig r;
    rig_init(&r, false);
    bring_up(&r);
    reply p;
    /* INQUIRY: no unit attention, SCSI-2 direct access. */
    const uint8_t inq[6] = {0x12, 0, 0, 0, 36, 0};
    scsi(&r, 1, inq, 6, 1, 36, &p);
    ck_assert_uint_eq(status_of(&p), 0);
    ck_assert_uint_eq(comp_of(&p), 0);
    ck_assert_uint_eq(data(&r)[0], 0x00);
    ck_assert_uint_eq(data(&r)[2], 2);
    ck_assert_mem_eq(data(&r) + 8, "SGI     ", 8);
    /* First media command: UNIT ATTENTION / POWER ON, RESET. */
    const uint8_t tur[6] = {0};
    scsi(&r, 1, tur, 6, 0, 0, &p);
    ck_assert_uint_eq(sense_of(&p), 0x629);
    ck_assert_uint_eq(get16(p.e + 12) & ISP_SF_GOT_SENSE, ISP_SF_GOT_SENSE);
    scsi(&r, 1, tur, 6, 0, 0, &p);
    ck_assert_uint_eq(status_of(&p), 0);
    /* READ CAPACITY(10) and (16). */
    const uint8_t rc10[10] = {0x25};
    scsi(&r, 1, rc10, 10, 1, 8, &p);
    ck_assert_uint_eq(comp_of(&p), 0);
    ck_assert_uint_eq(data(&r)[2] << 8 | data(&r)[3], DISK_BLOCKS - 1);
    ck_assert_uint_eq(data(&r)[6] << 8 | data(&r)[7], 512);
    const uint8_t rc16[16] = {0x9e, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32};
    scsi(&r, 1, rc16, 12, 1, 32, &p); /* 12 bytes of CDB: too short for a 16-byte one */
    ck_assert_uint_eq(sense_of(&p), 0x524);
    /* WRITE(10) 4 blocks at 100, then READ(10) them back, and the file has them. */
    for (unsigned i = 0; i < 2048; i++)
        data(&r)[i] = (uint8_t)(i * 13 + 5);
    uint8_t saved[2048];
    memcpy(saved, data(&r), sizeof saved);
    const uint8_t w10[10] = {0x2a, 0, 0, 0, 0, 100, 0, 0, 4, 0};
    scsi(&r, 1, w10, 10, 2, 2048, &p);
    ck_assert_uint_eq(status_of(&p), 0);
    ck_assert_uint_eq(comp_of(&p), 0);
    memset(data(&r), 0, 4096);
    const uint8_t r10[10] = {0x28, 0, 0, 0, 0, 100, 0, 0, 4, 0};
    scsi(&r, 1, r10, 10, 1, 2048, &p);
    ck_assert_uint_eq(comp_of(&p), 0);
    ck_assert_mem_eq(data(&r), saved, sizeof saved);
    int fd = open(r.path, O_RDONLY);
    uint8_t file[2048];
    ck_assert_int_eq(pread(fd, file, sizeof file, 100 * 512), 2048);
    close(fd);
    ck_assert_mem_eq(file, saved, sizeof saved);
    /* READ(6) of block 3: the image's pattern. */
    const uint8_t r6[6] = {0x08, 0, 0, 3, 1, 0};
    scsi(&r, 1, r6, 6, 1, 512, &p);
    ck_assert_uint_eq(comp_of(&p), 0);
    ck_assert_uint_eq(data(&r)[5], (uint8_t)(3 * 7 + 5));
    /* A larger buffer than the data: underrun with the residual. */
    scsi(&r, 1, r6, 6, 1, 1024, &p);
    ck_assert_uint_eq(comp_of(&p), ISP_CS_DATA_UNDERRUN);
    ck_assert_uint_eq(get32(p.e + 20), 512);
    /* Out of range, unknown operation, wrong LUN. */
    const uint8_t far[10] = {0x28, 0, 0, 0, 0x08, 0, 0, 0, 1, 0};
    scsi(&r, 1, far, 10, 1, 512, &p);
    ck_assert_uint_eq(sense_of(&p), 0x521);
    const uint8_t bad[6] = {0x02};
    scsi(&r, 1, bad, 6, 0, 0, &p);
    ck_assert_uint_eq(sense_of(&p), 0x520);
    /* MODE SENSE(6) page 8: WCE; MODE SELECT clears it. */
    const uint8_t ms[6] = {0x1a, 0x08, 0x08, 0, 64, 0};
    scsi(&r, 1, ms, 6, 1, 64, &p);
    ck_assert_uint_eq(data(&r)[0], 3 + 20);
    ck_assert_uint_eq(data(&r)[4], 0x08);
    ck_assert_uint_eq(data(&r)[6] & 4, 4);
    uint8_t sel[24] = {0, 0, 0, 0, 0x08, 18, 0};
    memcpy(data(&r), sel, sizeof sel);
    const uint8_t msel[6] = {0x15, 0x10, 0, 0, 24, 0};
    scsi(&r, 1, msel, 6, 2, 24, &p);
    ck_assert_uint_eq(status_of(&p), 0);
    scsi(&r, 1, ms, 6, 1, 64, &p);
    ck_assert_uint_eq(data(&r)[6] & 4, 0);
    /* SYNCHRONIZE CACHE, REPORT LUNS, REQUEST SENSE. */
    const uint8_t sc[10] = {0x35};
    scsi(&r, 1, sc, 10, 0, 0, &p);
    ck_assert_uint_eq(status_of(&p), 0);
    const uint8_t rl[12] = {0xa0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0};
    scsi(&r, 1, rl, 12, 1, 4096, &p);
    ck_assert_uint_eq(comp_of(&p), ISP_CS_DATA_UNDERRUN);
    ck_assert_uint_eq(data(&r)[3], 8);
    scsi(&r, 1, bad, 6, 0, 0, &p);
    const uint8_t rs[6] = {0x03, 0, 0, 0, 18, 0};
    scsi(&r, 1, rs, 6, 1, 18, &p);
    ck_assert_uint_eq(data(&r)[2], SK_ILLEGAL_REQUEST);
    ck_assert_uint_eq(data(&r)[12], 0x20);
    /* START STOP UNIT: stopped means NOT READY. */
    const uint8_t stop[6] = {0x1b, 0, 0, 0, 0, 0}, start[6] = {0x1b, 0, 0, 0, 1, 0};
    scsi(&r, 1, stop, 6, 0, 0, &p);
    scsi(&r, 1, tur, 6, 0, 0, &p);
    ck_assert_uint_eq(sense_of(&p), 0x204);
    scsi(&r, 1, start, 6, 0, 0, &p);
    scsi(&r, 1, tur, 6, 0, 0, &p);
    ck_assert_uint_eq(status_of(&p), 0);
    /* An absent target: selection timeout after 250 ms of virtual time. */
    uint64_t t0 = r.clock.now;
    scsi(&r, 4, tur, 6, 0, 0, &p);
    ck_assert_uint_eq(comp_of(&p), ISP_CS_INCOMPLETE);
    ck_assert_uint_eq(get16(p.e + 12), ISP_SF_GOT_BUS);
    ck_assert_uint_ge(r.clock.now - t0, sched_ns_to_ticks(&r.clock, 250000000));
    /* Fast posting: a good completion comes through the mailboxes. */
    ck_assert_uint_eq(mbox1(&r, ISP_MBC_SET_FIRMWARE_FEATURES, 0x21), ISP_MBS_OK);
    scsi(&r, 1, tur, 6, 0, 0, &p);
    ck_assert(p.fast);
    scsi(&r, 1, bad, 6, 0, 0, &p); /* a check condition still gets a status IOCB */
    ck_assert(!p.fast);
    rig_free(&r);
}
END_TEST

START_TEST(isp_continuations_and_garbage)
{
    rig r;
    rig_init(&r, false);
    bring_up(&r);
    reply p;
    const uint8_t tur[6] = {0};
    scsi(&r, 1, tur, 6, 0, 0, &p); /* the unit attention */
    /* READ(10) of 7 blocks into 7 segments: 2 in the command, 5 in a
     * continuation, in reverse order in memory. */
    uint8_t e[64] = {ISP_ET_COMMAND_A64, 2};
    put32(e + 4, 77);
    e[9] = 1;
    put16(e + 10, 10);
    put16(e + 12, ISP_CF_DATA_IN);
    put16(e + 18, 7);
    const uint8_t r10[10] = {0x28, 0, 0, 0, 0, 10, 0, 0, 7, 0};
    memcpy(e + 20, r10, 10);
    uint8_t c[64] = {ISP_ET_CONTINUE_A64, 1};
    for (unsigned i = 0; i < 7; i++) {
        uint64_t a = DATA + (6 - i) * 0x1000ull;
        uint8_t *q = i < 2 ? e + 40 + 12 * i : c + 4 + 12 * (i - 2);
        put32(q, (uint32_t)a);
        put32(q + 4, (uint32_t)(a >> 32));
        put32(q + 8, 512);
    }
    post(&r, e);
    post(&r, c);
    wr(&r, ISP_MAILBOX(4), (uint16_t)r.req_in);
    wait_reply(&r, &p);
    ck_assert_uint_eq(p.handle, 77);
    ck_assert_uint_eq(comp_of(&p), 0);
    for (unsigned i = 0; i < 7; i++)
        ck_assert_uint_eq(data(&r)[(6 - i) * 0x1000 + 9], (uint8_t)((10 + i) * 7 + 9));
    /* A marker gets no response; garbage gets an error entry. */
    uint8_t m[64] = {ISP_ET_MARKER, 1};
    m[10] = 2;
    post(&r, m);
    uint8_t g[64];
    memset(g, 0xa5, sizeof g);
    g[0] = 0x33;
    g[1] = 1;
    post(&r, g);
    wr(&r, ISP_MAILBOX(4), (uint16_t)r.req_in);
    wait_reply(&r, &p);
    ck_assert_uint_eq(p.e[3], ISP_ES_BAD_HEADER);
    ck_assert_uint_eq(p.handle, 0xa5a5a5a5);
    /* A command whose continuation is not one: bad payload. */
    e[1] = 2;
    put32(e + 4, 78);
    post(&r, e);
    post(&r, g);
    wr(&r, ISP_MAILBOX(4), (uint16_t)r.req_in);
    wait_reply(&r, &p);
    ck_assert_uint_eq(p.handle, 78);
    ck_assert_uint_eq(p.e[3], ISP_ES_BAD_PAYLOAD);
    /* An in-pointer outside the queue is ignored; the queue still works. */
    wr(&r, ISP_MAILBOX(4), 300);
    run_for(&r.clock, sched_ns_to_ticks(&r.clock, 1000000));
    scsi(&r, 1, tur, 6, 0, 0, &p);
    ck_assert_uint_eq(status_of(&p), 0);
    /* A bus reset gives a unit attention again. */
    uint16_t br[8] = {ISP_MBC_BUS_RESET, 3, 0};
    ck_assert_uint_eq(mbox(&r, br, 7), ISP_MBS_OK);
    scsi(&r, 1, tur, 6, 0, 0, &p);
    ck_assert_uint_eq(sense_of(&p), 0x629);
    rig_free(&r);
}
END_TEST

START_TEST(isp_readonly_disk)
{
    rig r;
    rig_init(&r, true);
    bring_up(&r);
    reply p;
    const uint8_t tur[6] = {0};
    scsi(&r, 1, tur, 6, 0, 0, &p);
    const uint8_t w10[10] = {0x2a, 0, 0, 0, 0, 1, 0, 0, 1, 0};
    scsi(&r, 1, w10, 10, 2, 512, &p);
    ck_assert_uint_eq(sense_of(&p), 0x727);
    const uint8_t ms[6] = {0x1a, 0, 0x3f, 0, 4, 0};
    scsi(&r, 1, ms, 6, 1, 4, &p);
    ck_assert_uint_eq(data(&r)[2] & 0x80, 0x80); /* WP */
    rig_free(&r);
}
END_TEST

START_TEST(disk_open_errors)
{
    xerr e;
    ck_assert_ptr_null(scsi_disk_open("/nonexistent/xbow.img", false, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "No such file"));
    char path[64];
    snprintf(path, sizeof path, "/tmp/xbow-isp-odd-%d.img", (int)getpid());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_eq(ftruncate(fd, 1000), 0);
    close(fd);
    ck_assert_ptr_null(scsi_disk_open(path, false, &e));
    ck_assert_ptr_nonnull(strstr(e.msg, "512"));
    fd = open(path, O_RDWR);
    ck_assert_int_eq(ftruncate(fd, 4096), 0);
    close(fd);
    scsi_disk *a = scsi_disk_open(path, false, &e);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_null(scsi_disk_open(path, false, &e)); /* locked */
    ck_assert_ptr_nonnull(strstr(e.msg, "in use"));
    ck_assert_ptr_null(scsi_disk_open(path, true, &e));
    scsi_disk_close(a);
    a = scsi_disk_open(path, false, &e);
    ck_assert_ptr_nonnull(a);
    scsi_disk_close(a);
    unlink(path);
}
END_TEST


int main(void)
{
    return check_main("isp", "core", NULL, NULL, 60, isp_chip_diag_and_rom, isp_firmware_checked,
                      isp_scsi_commands, isp_continuations_and_garbage, isp_readonly_disk,
                      disk_open_errors);
}
