/* Files of the read-only filesystem the SDK builds into flash from an application's READFS_FILES
 * (the constants image of a graph among them), on the host: host files looked up by name in the
 * folders TESSERA_READFS_PATH lists (separated by ':'), else in the working folder. */
#ifndef TESSERA_AT_EMUL_READFS_H
#define TESSERA_AT_EMUL_READFS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first folder's file of that name (an absolute name as it is); NULL, with the folders searched on stderr, when none has it. */
static inline FILE *AT_EmulReadfsOpen(const char *Name)
{
    if (Name[0] == '/')
        return fopen(Name, "rb");
    const char *Path = getenv("TESSERA_READFS_PATH");
    if (!Path || !*Path)
        Path = ".";
    char Candidate[4096];
    for (const char *Folder = Path; *Folder;) {
        const size_t Length = strcspn(Folder, ":");
        if (Length > 0 && snprintf(Candidate, sizeof Candidate, "%.*s/%s", (int) Length, Folder, Name) < (int) sizeof Candidate) {
            FILE *File = fopen(Candidate, "rb");
            if (File)
                return File;
        }
        Folder += Length;
        if (*Folder == ':')
            Folder++;
    }
    fprintf(stderr,
            "emulation: the read-only filesystem has no file '%s' (looked in: %s); put it in the working folder "
            "or list its folder in TESSERA_READFS_PATH\n",
            Name, Path);
    return 0;
}

#endif
