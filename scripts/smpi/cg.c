/* A CG-like kernel: rows of a banded matrix split unevenly (rank r owns a share r + 1), each
 * iteration exchanges the vector's boundary entries with both ring neighbours (MPI_Isend /
 * MPI_Irecv / MPI_Waitall), multiplies (declared 2 flops a nonzero), and sums two dot products
 * with MPI_Allreduce; every tenth iteration the ranks gather their residuals with
 * MPI_Allgather. A ground truth program of tests/fixtures/smpi (see scripts/smpi-fixture.py).
 *
 * Usage: cg N ITERS   (N rows, bandwidth 64)
 *
 * At the end every rank prints `rank R end T check C`. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BAND 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc != 3) {
        if (me == 0)
            fprintf(stderr, "usage: cg N ITERS\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int n = atoi(argv[1]), iters = atoi(argv[2]);
    int total = p * (p + 1) / 2;
    int rows = me == p - 1 ? n : n * (me + 1) / total;
    if (me == p - 1)
        for (int r = 0; r < p - 1; r++)
            rows -= n * (r + 1) / total;
    double *x = malloc((size_t)(rows + 2 * BAND) * sizeof(double));
    double *y = malloc((size_t)rows * sizeof(double));
    double all[64];
    for (int i = 0; i < rows + 2 * BAND; i++)
        x[i] = 1.0 / (1 + (i + me) % 5);
    int left = (me + p - 1) % p, right = (me + 1) % p;
    double rho = 0.0;
    for (int it = 0; it < iters; it++) {
        MPI_Request req[4];
        MPI_Irecv(x, BAND, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(x + BAND + rows, BAND, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(x + BAND, BAND, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(x + rows, BAND, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        double dots[2] = {0.0, 0.0};
        for (int i = 0; i < rows; i++) {
            double s = 0.0;
            for (int k = 0; k <= 2 * BAND; k += 8)
                s += x[i + k] * 0.01;
            y[i] = s;
            dots[0] += s * x[i + BAND];
            dots[1] += s * s;
        }
        smpi_execute_flops(2.0 * (2 * BAND + 1) * rows);
        double sums[2];
        MPI_Allreduce(dots, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < rows; i++)
            x[i + BAND] = 0.5 * x[i + BAND] + 0.5 * y[i] / (1.0 + sums[1]);
        smpi_execute_flops(4.0 * rows);
        double r2 = 0.0;
        MPI_Allreduce(&sums[0], &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        rho += r2;
        if (it % 10 == 9)
            MPI_Allgather(&rho, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    }
    double check = 0.0;
    for (int i = 0; i < rows; i++)
        check += x[i + BAND];
    printf("rank %d end %.9f check %.6f\n", me, MPI_Wtime(), check);
    free(x);
    free(y);
    MPI_Finalize();
    return 0;
}
