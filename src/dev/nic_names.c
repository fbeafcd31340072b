/* NIC model names for the option parser, without linking the models (the
 * names are NIC_MODEL_NAMES in nic.h; nic.c has the models themselves). */
#include <string.h>

#include "dev/nic.h"

bool nic_model_name_known(const char *name)
{
    size_t n = strlen(name);
    for (const char *p = NIC_MODEL_NAMES; n && *p;) {
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (end != NULL);
    }
    return false;
}
