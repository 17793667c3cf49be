/* A GAP application written against PMSIS as SDK applications are, built for the host with
 * `tessera gap emul-cflags`: it reads a 32x32 PGM image with gaplib's ReadImageFromFile, loads the
 * filters and biases from the read-only filesystem into L3 RAM, runs the two generated layers on the
 * cluster and writes the result (12 planes of 5x5, int16) to output.bin through the host
 * filesystem, and the image it read back to echo.pgm. Exit 0 on success. */
#include "pmsis.h"

#include "AppKernels.h"
#include "Gap.h"
#include "bsp/bsp.h"
#include "bsp/fs.h"
#include "bsp/fs/hostfs.h"
#include "bsp/fs/readfs.h"
#include "gaplib/ImgIO.h"

#define W 32
#define H 32

struct pi_device DefaultRam;
static struct pi_device Flash, Fs;
static uint32_t Filter[2], Bias[2], FilterSize[2], BiasSize[2];
static uint32_t Layer0Out;
static short int *Image, *Output;

/* A file of the read-only filesystem into a new L3 block, through a small L2 buffer. */
static int LoadToL3(const char *Name, uint32_t *Address, uint32_t *Size)
{
    pi_fs_file_t *File = pi_fs_open(&Fs, Name, 0);
    if (File == NULL)
        return 1;
    if (pi_ram_alloc(&DefaultRam, Address, File->size)) {
        pi_fs_close(File);
        return 1;
    }
    *Size = File->size;
    char *Buffer = pmsis_l2_malloc(256);
    uint32_t Done = 0;
    pi_task_t Task;
    while (Done < File->size) {
        const int32_t Read = pi_fs_read_async(File, Buffer, 256, pi_task_block(&Task));
        pi_task_wait_on(&Task);
        if (Read <= 0)
            break;
        pi_ram_write(&DefaultRam, *Address + Done, Buffer, (uint32_t) Read);
        Done += (uint32_t) Read;
    }
    pmsis_l2_malloc_free(Buffer, 256);
    pi_fs_close(File);
    return Done == *Size ? 0 : 1;
}

static short int *L3(uint32_t Address) { return (short int *) (uintptr_t) Address; }

static void RunLayers(void *Arg)
{
    (void) Arg;
    /* L3 addresses are uint32_t, as on the chip. */
    Conv5x5MaxPool2x2_0(Image, L3(Filter[0]), L3(Bias[0]), L3(Layer0Out));
    Conv5x5MaxPool2x2_1(L3(Layer0Out), L3(Filter[1]), L3(Bias[1]), Output);
}

static void Main(void)
{
    unsigned char *Pixels = pmsis_l2_malloc(W * H);
    Image = pmsis_l2_malloc(W * H * sizeof(short int));
    Output = pmsis_l2_malloc(12 * 5 * 5 * sizeof(short int));
    if (!Pixels || !Image || !Output || ReadImageFromFile("input.pgm", W, H, 1, Pixels, W * H, IMGIO_OUTPUT_CHAR, 0)) {
        printf("cannot read input.pgm\n");
        pmsis_exit(-1);
    }
    for (int i = 0; i < W * H; i++)
        Image[i] = (short int) (Pixels[i] << 4); /* Q8 pixels to Q12 */
    if (WriteImageToFile("echo.pgm", W, H, 1, Pixels, GRAY_SCALE_IO)) {
        printf("cannot write echo.pgm\n");
        pmsis_exit(-2);
    }

    struct pi_default_ram_conf RamConf;
    struct pi_default_flash_conf FlashConf;
    struct pi_readfs_conf FsConf;
    pi_default_ram_conf_init(&RamConf);
    pi_open_from_conf(&DefaultRam, &RamConf);
    pi_default_flash_conf_init(&FlashConf);
    pi_open_from_conf(&Flash, &FlashConf);
    pi_readfs_conf_init(&FsConf);
    FsConf.fs.flash = &Flash;
    pi_open_from_conf(&Fs, &FsConf);
    if (pi_ram_open(&DefaultRam) || pi_flash_open(&Flash) || pi_fs_mount(&Fs)) {
        printf("cannot open the RAM, the flash or its filesystem\n");
        pmsis_exit(-3);
    }
    if (LoadToL3("Filter0.bin", &Filter[0], &FilterSize[0]) || LoadToL3("Bias0.bin", &Bias[0], &BiasSize[0]) ||
        LoadToL3("Filter1.bin", &Filter[1], &FilterSize[1]) || LoadToL3("Bias1.bin", &Bias[1], &BiasSize[1])) {
        printf("cannot load the weights into L3\n");
        pmsis_exit(-4);
    }
    pi_fs_unmount(&Fs);
    pi_flash_close(&Flash);
    if (pi_ram_alloc(&DefaultRam, &Layer0Out, 8 * 14 * 14 * sizeof(short int))) {
        printf("cannot allocate the first layer's output in L3\n");
        pmsis_exit(-5);
    }

    struct pi_device Cluster;
    struct pi_cluster_conf ClusterConf;
    pi_cluster_conf_init(&ClusterConf);
    pi_open_from_conf(&Cluster, &ClusterConf);
    if (pi_cluster_open(&Cluster)) {
        printf("cannot open the cluster\n");
        pmsis_exit(-6);
    }
    App_L1_Memory = pmsis_l1_malloc(_App_L1_Memory_SIZE);
    App_L2_Memory = pmsis_l2_malloc(_App_L2_Memory_SIZE);
    if (App_L1_Memory == NULL || App_L2_Memory == NULL) {
        printf("cannot allocate the kernels' L1 (%d bytes) or L2 (%d bytes)\n", _App_L1_Memory_SIZE, _App_L2_Memory_SIZE);
        pmsis_exit(-7);
    }
    struct pi_cluster_task Task;
    pi_cluster_task(&Task, RunLayers, NULL);
    /* The worker cores' stacks, as the applications NNTool's examples ship set them; the task comes back. */
    if (pi_cluster_task_stacks(&Task, NULL, 1024) != &Task || Task.slave_stack_size != 1024) {
        printf("pi_cluster_task_stacks did not set the stack size\n");
        pmsis_exit(-8);
    }
    pi_perf_conf(1 << PI_PERF_CYCLES);
    pi_perf_reset();
    pi_perf_start();
    if (pi_cluster_send_task(&Cluster, &Task)) {
        printf("the cluster task failed\n");
        pmsis_exit(-8);
    }
    pi_perf_stop();
    pmsis_l1_malloc_free(App_L1_Memory, _App_L1_Memory_SIZE);
    pmsis_l2_malloc_free(App_L2_Memory, _App_L2_Memory_SIZE);
    pi_cluster_close(&Cluster);

    struct pi_hostfs_conf HostConf;
    struct pi_device Host;
    pi_hostfs_conf_init(&HostConf);
    pi_open_from_conf(&Host, &HostConf);
    pi_fs_file_t *File = pi_fs_mount(&Host) ? NULL : pi_fs_open(&Host, "output.bin", PI_FS_FLAGS_WRITE);
    if (File == NULL || pi_fs_write(File, Output, 12 * 5 * 5 * sizeof(short int)) != 12 * 5 * 5 * sizeof(short int)) {
        printf("cannot write output.bin\n");
        pmsis_exit(-9);
    }
    pi_fs_close(File);
    pi_fs_unmount(&Host);

    for (int i = 0; i < 2; i++) {
        pi_ram_free(&DefaultRam, Filter[i], FilterSize[i]);
        pi_ram_free(&DefaultRam, Bias[i], BiasSize[i]);
    }
    pi_ram_free(&DefaultRam, Layer0Out, 8 * 14 * 14 * sizeof(short int));
    pi_ram_close(&DefaultRam);
    pmsis_l2_malloc_free(Pixels, W * H);
    pmsis_l2_malloc_free(Image, W * H * sizeof(short int));
    pmsis_l2_malloc_free(Output, 12 * 5 * 5 * sizeof(short int));
    printf("CYCLES %u\n", pi_perf_read(PI_PERF_CYCLES));
    printf("RESULT ok\n");
    pmsis_exit(0);
}

int main(void) { return pmsis_kickoff((void *) Main); }
