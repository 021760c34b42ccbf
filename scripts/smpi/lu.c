/* LU decomposition without pivoting, rows distributed over the ranks, blocking MPI_Send /
 * MPI_Recv only: the ground truth program of tests/fixtures/smpi (see scripts/smpi-fixture.sh).
 *
 * Usage: lu N WIDTH
 *   N      matrix order (rows of N doubles);
 *   WIDTH  0: block distribution (rank r owns rows [r*N/p, (r+1)*N/p));
 *          w > 0: block-cyclic rows with blocks of w rows (row i belongs to (i / w) mod p).
 *
 * Step k: the owner of row k sends its part k..N-1 (N-k doubles, tag k) with MPI_Send to every
 * other rank that still owns a row below k, in increasing rank order; those ranks MPI_Recv it;
 * then every rank eliminates column k from its own rows below k. The elimination is computed for
 * real and its cost is declared to the simulator with smpi_execute_flops (2 flops per updated
 * element, 1 per multiplier), so the simulated time does not depend on the machine running the
 * simulation (run with --cfg=smpi/simulate-computation:no).
 *
 * At the end every rank prints `rank R end T check C`: T = MPI_Wtime() after its last step (the
 * simulated time), C = the sum of its rows' entries (the same for every platform). The matrix
 * a(i,j) = 1/(1+|i-j|) + N*[i==j] is diagonally dominant, so no pivoting is needed. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

static int n_rows, p, width;

static int owner(int i)
{
    if (width > 0)
        return (i / width) % p;
    int per = (n_rows + p - 1) / p;
    return i / per;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc != 3) {
        if (me == 0)
            fprintf(stderr, "usage: lu N WIDTH\n");
        MPI_Finalize();
        return 1;
    }
    n_rows = atoi(argv[1]);
    width = atoi(argv[2]);
    const int n = n_rows;

    /* my rows, in increasing global order */
    int mine = 0;
    for (int i = 0; i < n; i++)
        mine += owner(i) == me;
    int *row_of = malloc(sizeof(int) * (mine + 1));
    double *a = malloc(sizeof(double) * (size_t)(mine + 1) * n);
    double *piv = malloc(sizeof(double) * n);
    int *last_row = malloc(sizeof(int) * p); /* each rank's last row, to know who needs row k */
    for (int r = 0; r < p; r++)
        last_row[r] = -1;
    for (int i = 0, m = 0; i < n; i++) {
        last_row[owner(i)] = i;
        if (owner(i) != me)
            continue;
        row_of[m] = i;
        for (int j = 0; j < n; j++)
            a[(size_t)m * n + j] = 1.0 / (1.0 + abs(i - j)) + (i == j ? n : 0.0);
        m++;
    }

    for (int k = 0; k < n - 1; k++) {
        int o = owner(k);
        int len = n - k;
        if (o == me) {
            int m = 0;
            while (row_of[m] != k)
                m++;
            for (int j = k; j < n; j++)
                piv[j - k] = a[(size_t)m * n + j];
            for (int r = 0; r < p; r++)
                if (r != me && last_row[r] > k)
                    MPI_Send(piv, len, MPI_DOUBLE, r, k, MPI_COMM_WORLD);
        } else if (last_row[me] > k) {
            MPI_Recv(piv, len, MPI_DOUBLE, o, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        int updated = 0;
        for (int m = 0; m < mine; m++) {
            if (row_of[m] <= k)
                continue;
            double *r = a + (size_t)m * n;
            double l = r[k] / piv[0];
            r[k] = l;
            for (int j = k + 1; j < n; j++)
                r[j] -= l * piv[j - k];
            updated++;
        }
        if (updated > 0)
            smpi_execute_flops((double)updated * (2.0 * (n - k - 1) + 1.0));
    }

    double check = 0;
    for (size_t e = 0; e < (size_t)mine * n; e++)
        check += a[e];
    printf("rank %d end %.9f check %.6f\n", me, MPI_Wtime(), check);
    free(row_of);
    free(a);
    free(piv);
    free(last_row);
    MPI_Finalize();
    return 0;
}
