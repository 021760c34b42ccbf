/* Ping-pong between ranks 0 and 1 with blocking MPI_Send / MPI_Recv: for every size given on the
 * command line (bytes), REPS round trips; prints `size time` where time is half the mean round
 * trip (the one-way time of a message of that size). Used by scripts/smpi-fixture.sh to measure
 * each host pair's link as the source measures it.
 *
 * Usage: pingpong REPS SIZE... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    int max = 0;
    for (int s = 2; s < argc; s++)
        if (atoi(argv[s]) > max)
            max = atoi(argv[s]);
    char *buf = calloc((size_t)max + 1, 1);
    for (int s = 2; s < argc; s++) {
        int size = atoi(argv[s]);
        double t0 = MPI_Wtime();
        for (int r = 0; r < reps; r++) {
            if (me == 0) {
                MPI_Send(buf, size, MPI_BYTE, 1, s, MPI_COMM_WORLD);
                MPI_Recv(buf, size, MPI_BYTE, 1, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (me == 1) {
                MPI_Recv(buf, size, MPI_BYTE, 0, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, size, MPI_BYTE, 0, s, MPI_COMM_WORLD);
            }
        }
        if (me == 0)
            printf("%d %.12g\n", size, (MPI_Wtime() - t0) / (2.0 * reps));
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
