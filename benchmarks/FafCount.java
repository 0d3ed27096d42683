// Counts n queens with NQueensFAF's CpuSolver and prints the number of solutions.
// Built and run by benchmarks/count.py (--faf DIR) against a checkout of NQueensFAF:
//   java -cp CLASSES FafCount N THREADS
import de.nqueensfaf.impl.CpuSolver;

public class FafCount {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        CpuSolver solver = new CpuSolver();
        solver.setN(n);
        solver.setThreadCount(threads);
        solver.setUpdateInterval(0); // no progress thread: only the count
        solver.start();
        System.out.println(solver.getSolutions());
    }
}
