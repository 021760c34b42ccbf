/* An FFT-like transpose: each iteration every rank transforms its rows (declared 5 N log2 N
 * flops a row, with a share of extra work growing with the rank), exchanges its blocks with
 * every other rank with MPI_Alltoall (the transpose), transforms again, and rank 0 gathers a
 * checksum with MPI_Reduce and broadcasts it with MPI_Bcast: a ground truth program of
 * tests/fixtures/smpi (see scripts/smpi-fixture.py).
 *
 * Usage: fft N ITERS   (an N x N array of complex doubles, N divisible by the ranks)
 *
 * At the end every rank prints `rank R end T check C`. */
#include <math.h>
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc != 3) {
        if (me == 0)
            fprintf(stderr, "usage: fft N ITERS\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int n = atoi(argv[1]), iters = atoi(argv[2]);
    int rows = n / p;
    size_t count = (size_t)rows * n * 2; /* complex as two doubles */
    double *a = malloc(count * sizeof(double)), *b = malloc(count * sizeof(double));
    for (size_t i = 0; i < count; i++)
        a[i] = (double)((me * 31 + i) % 11);
    double lg = log2((double)n), check = 0.0;
    for (int it = 0; it < iters; it++) {
        for (size_t i = 0; i < count; i++)
            a[i] = a[i] * 0.5 + 1.0;
        smpi_execute_flops(5.0 * n * lg * rows * (1.0 + 0.25 * me));
        MPI_Alltoall(a, (int)(count / p), MPI_DOUBLE, b, (int)(count / p), MPI_DOUBLE, MPI_COMM_WORLD);
        double local = 0.0;
        for (size_t i = 0; i < count; i++) {
            a[i] = b[i] * 0.5;
            local += a[i];
        }
        smpi_execute_flops(5.0 * n * lg * rows);
        double sum = 0.0;
        MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Bcast(&sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        check += sum;
    }
    printf("rank %d end %.9f check %.6f\n", me, MPI_Wtime(), check);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
