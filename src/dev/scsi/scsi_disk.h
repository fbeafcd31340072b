/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A SCSI direct-access target (a disk) backed by an image file.
 *
 * The target side of a SCSI bus: a host adapter model hands it a CDB and a
 * way to move the data phase (scsi_xfer), and gets back the status byte,
 * fixed-format sense data on CHECK CONDITION and how many bytes moved.
 * Block size 512; the image's size is the capacity.  Commands: INQUIRY,
 * TEST UNIT READY, READ CAPACITY(10/16), READ/WRITE(6/10/16), MODE
 * SENSE(6/10), MODE SELECT(6/10), REQUEST SENSE, SYNCHRONIZE CACHE(10/16),
 * START STOP UNIT, REPORT LUNS, VERIFY(10); anything else is ILLEGAL
 * REQUEST / INVALID COMMAND OPERATION CODE (docs/storage.md).
 *
 * The image is opened read-write (read-only with `ro`: writes get DATA
 * PROTECT / WRITE PROTECTED) and locked with flock(2), so that a second
 * xbow cannot use it at the same time. */
#ifndef XBOW_SCSI_DISK_H
#define XBOW_SCSI_DISK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common.h"
#include "core/dev.h"
#include "core/strbuf.h"

#define SCSI_BLOCK 512
#define SCSI_SENSE_LEN 18 /* fixed-format sense data we return */

/* SCSI status bytes. */
enum {
    SCSI_GOOD = 0x00,
    SCSI_CHECK_CONDITION = 0x02,
    SCSI_BUSY = 0x08,
};

/* Sense keys. */
enum {
    SK_NO_SENSE = 0x0,
    SK_NOT_READY = 0x2,
    SK_MEDIUM_ERROR = 0x3,
    SK_ILLEGAL_REQUEST = 0x5,
    SK_UNIT_ATTENTION = 0x6,
    SK_DATA_PROTECT = 0x7,
    SK_ABORTED_COMMAND = 0xb,
};

/* The data phase as the initiator set it up: `len` bytes of buffer in the
 * direction of the command.  move() copies `n` bytes at offset `off` of
 * the initiator's buffer to (to_initiator) or from `buf`; it returns 0, or
 * -1 when the initiator's DMA failed (the command ends with what moved). */
typedef struct scsi_xfer {
    uint64_t len;
    int (*move)(void *ctx, uint64_t off, void *buf, uint64_t n, bool to_initiator);
    void *ctx;
} scsi_xfer;

/* The outcome of one command. */
typedef struct scsi_result {
    uint8_t status;                /* SCSI_GOOD, SCSI_CHECK_CONDITION ... */
    uint8_t sense[SCSI_SENSE_LEN]; /* valid on CHECK CONDITION */
    uint64_t moved;                /* bytes of the data phase that moved */
    uint64_t wanted;               /* bytes the target wanted to move */
    bool dma_error;                /* the initiator's side of the data phase failed */
    bool data_out;                 /* the data phase went from the initiator */
} scsi_result;

typedef struct scsi_disk scsi_disk;

/* What a target remembers between commands: the state a snapshot holds
 * (the host adapter keeps one per target ID and declares it). */
typedef struct scsi_tstate {
    uint8_t ua;                    /* a UNIT ATTENTION is pending (power on / reset) */
    uint8_t stopped;               /* START STOP UNIT stopped it */
    uint8_t wce;                   /* write cache enabled (caching mode page) */
    uint8_t sense[SCSI_SENSE_LEN]; /* the last sense data, for REQUEST SENSE */
} scsi_tstate;
extern const struct state_table scsi_tstate_state;

/* Open (and lock) an image: it must exist, be a regular file or block
 * device, and its size be a non-zero multiple of 512. */
scsi_disk *scsi_disk_open(const char *path, bool ro, xerr *err);
void scsi_disk_close(scsi_disk *d);

/* Execute a command addressed to LUN `lun` (only LUN 0 exists). */
void scsi_disk_exec(scsi_disk *d, scsi_tstate *ts, unsigned lun, const uint8_t *cdb,
                    unsigned cdb_len, const scsi_xfer *x, scsi_result *r);
/* A SCSI bus reset or power-on: the next command (but INQUIRY, REQUEST
 * SENSE, REPORT LUNS) reports UNIT ATTENTION / POWER ON, RESET. */
void scsi_tstate_reset(scsi_tstate *ts);

const char *scsi_disk_path(const scsi_disk *d);
uint64_t scsi_disk_blocks(const scsi_disk *d);
bool scsi_disk_readonly(const scsi_disk *d);
/* Commands executed, blocks read and written. */
void scsi_disk_counts(const scsi_disk *d, uint64_t *cmds, uint64_t *rd, uint64_t *wr);
/* The name of an operation code ("READ(10)"), or NULL. */
const char *scsi_op_name(uint8_t op);
/* "READ(10) lba 2048 blocks 8" and the like. */
void scsi_cdb_format(const uint8_t *cdb, unsigned len, strbuf *out);

#endif
