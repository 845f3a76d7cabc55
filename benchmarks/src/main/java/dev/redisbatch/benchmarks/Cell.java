package dev.redisbatch.benchmarks;

/**
 * One benchmark of a suite: the values of its JMH parameters and its threads.
 *
 * @param strategy the strategy id
 * @param workload {@code GET}, {@code SET}, or empty where the suite has no workload
 * @param n the commands per batch
 * @param network {@code direct} or {@code rtt<ms>}
 * @param threads the calling threads
 * @param virtual whether they are virtual threads (JDK 21 and later)
 */
record Cell(String strategy, String workload, int n, String network, int threads, boolean virtual) {

	/**
	 * One batch of {@code n} commands on one thread.
	 * @param strategy the strategy id
	 * @param workload {@code GET} or {@code SET}
	 * @param n the commands per batch
	 * @param network {@code direct} or {@code rtt<ms>}
	 * @return the cell
	 */
	static Cell batch(String strategy, String workload, int n, String network) {
		return new Cell(strategy, workload, n, network, 1, false);
	}

	int rttMillis() {
		return BenchmarkEnvironment.rttMillis(this.network);
	}

	String threadsLabel() {
		return this.threads + (this.virtual ? " virtual" : "");
	}

	@Override
	public String toString() {
		return (this.strategy + " " + this.workload).trim() + " n=" + this.n + " " + this.network + " threads="
				+ this.threadsLabel();
	}

}
