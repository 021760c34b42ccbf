/* A 2D Jacobi sweep, rows split unevenly over the ranks (rank r owns a share r + 1 of the
 * rows), halo rows exchanged with MPI_Isend / MPI_Irecv / MPI_Waitall while the interior is
 * computed, and the residual summed with MPI_Allreduce every iteration: a ground truth program
 * of tests/fixtures/smpi (see scripts/smpi-fixture.py).
 *
 * Usage: jacobi N ITERS   (an N x N grid of doubles)
 *
 * The sweep is computed for real and its cost declared with smpi_execute_flops (4 flops a
 * point), so the simulated time does not depend on the machine running the simulation. At the
 * end every rank prints `rank R end T check C` (T = MPI_Wtime(), C = its rows' sum). */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc != 3) {
        if (me == 0)
            fprintf(stderr, "usage: jacobi N ITERS\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int n = atoi(argv[1]), iters = atoi(argv[2]);
    int total = p * (p + 1) / 2, first = 0;
    for (int r = 0; r < me; r++)
        first += n * (r + 1) / total;
    int rows = me == p - 1 ? n - first : n * (me + 1) / total;
    /* rows plus a halo row above and below */
    double *u = calloc((size_t)(rows + 2) * n, sizeof(double));
    double *v = calloc((size_t)(rows + 2) * n, sizeof(double));
    for (int i = 1; i <= rows; i++)
        for (int j = 0; j < n; j++)
            u[i * n + j] = (double)((first + i - 1 + j) % 7);
    int up = me > 0 ? me - 1 : MPI_PROC_NULL, down = me < p - 1 ? me + 1 : MPI_PROC_NULL;
    for (int it = 0; it < iters; it++) {
        MPI_Request req[4];
        int k = 0;
        if (up != MPI_PROC_NULL) {
            MPI_Irecv(u, n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[k++]);
            MPI_Isend(u + n, n, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &req[k++]);
        }
        if (down != MPI_PROC_NULL) {
            MPI_Irecv(u + (size_t)(rows + 1) * n, n, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &req[k++]);
            MPI_Isend(u + (size_t)rows * n, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[k++]);
        }
        /* interior rows while the halos travel */
        for (int i = 2; i < rows; i++)
            for (int j = 1; j < n - 1; j++)
                v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
        smpi_execute_flops(4.0 * (rows > 2 ? rows - 2 : 0) * n);
        MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
        double local = 0.0;
        for (int i = 1; i <= rows; i += rows > 1 ? rows - 1 : 1)
            for (int j = 1; j < n - 1; j++)
                v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
        smpi_execute_flops(4.0 * 2 * n);
        for (int i = 1; i <= rows; i++)
            for (int j = 1; j < n - 1; j++) {
                double d = v[i * n + j] - u[i * n + j];
                local += d * d;
            }
        smpi_execute_flops(3.0 * rows * n);
        double sum;
        MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double *w = u;
        u = v;
        v = w;
    }
    double check = 0.0;
    for (int i = 1; i <= rows; i++)
        for (int j = 0; j < n; j++)
            check += u[i * n + j];
    printf("rank %d end %.9f check %.6f\n", me, MPI_Wtime(), check);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
