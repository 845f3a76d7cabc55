package dev.redisbatch;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.redisbatch.internals.EventLoops;
import dev.redisbatch.protocol.ClusterKeys;
import dev.redisbatch.protocol.RespWriter;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * The run of one batch, from its first recorded command to its results: where commands
 * are recorded, when the batch or one of its lanes stops, and how it ends.
 * <p>
 * Each command is encoded, as it is recorded, straight into the open chunk of its
 * {@link Lane} (the {@link Router} picks it: the only server, or the master of the
 * command's slot). A full chunk ({@code chunkSize} commands or {@code maxChunkBytes}
 * bytes) is sent at once, while the chunks in flight fit in the window
 * ({@code maxInFlightBytes} and {@code maxInFlightCommands}), so memory is bounded by the
 * window and one open chunk per server, whatever the size of the batch.
 * <p>
 * Each chunk has its own deadline. When a chunk loses its connection or passes its
 * deadline, its lane stops: the lane's commands not yet sent end
 * {@link Outcome#NOT_SENT}. With one server that stops the batch; on a cluster the other
 * masters carry on. Nothing is ever sent twice, except a {@link Retry retry} the caller
 * asked for, and commands that did not run where they were sent (redirected, or their
 * master gone).
 * <p>
 * Not thread-safe: a run belongs to the thread that runs the batch.
 */
final class BatchRun implements Lane.Events {

	private final RunSettings settings;

	private final OutcomeLedger ledger;

	private final BatchReport report;

	private final Router router;

	private final Stops stops;

	private final @Nullable Retry retry;

	private final Throttle throttle;

	private final long startNanos = System.nanoTime();

	private @Nullable Lane current;

	private int commandStart = -1;

	private int commandSlot = Slots.ANY;

	private int transactionSlot = Slots.ANY;

	private int submitted;

	private int chunksSent;

	private boolean finished;

	private @Nullable BatchResults results;

	BatchRun(BatchConnectionPool pool, RunSettings settings, BatchObservations observations) {
		if (EventLoops.onEventLoop()) {
			throw new IllegalStateException(Messages.onEventLoop(Thread.currentThread().getName()));
		}
		this.settings = settings;
		OutcomeLedger outcomes = new OutcomeLedger();
		this.ledger = outcomes;
		this.report = BatchReport.of(observations, settings, pool.topology());
		boolean cluster = pool.topology() == BatchConnectionPool.Topology.CLUSTER;
		boolean sentinel = pool.topology() == BatchConnectionPool.Topology.SENTINEL;
		this.router = new Router(pool, (node) -> new Lane(node, settings, cluster, sentinel, outcomes, this));
		this.stops = new Stops(this.router, outcomes);
		this.retry = (settings.retryAttempts() > 0)
				? new Retry(settings, this.router, this.stops, outcomes, this::route) : null;
		this.throttle = Throttle.of(settings, this.report::throttled);
		if (settings.isRateCapped()) {
			this.report.rateCapped();
		}
	}

	/**
	 * Throw a failure of the recording code unchanged, checked or not, once the batch
	 * accounted for it.
	 */
	static RuntimeException rethrow(Throwable failure) {
		throw BatchRun.<RuntimeException>sneaky(failure);
	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> E sneaky(Throwable failure) throws E {
		throw (E) failure;
	}

	String name() {
		return this.settings.name();
	}

	int submitted() {
		return this.submitted;
	}

	int chunksSent() {
		return this.chunksSent;
	}

	@Nullable Throwable abortCause() {
		return this.stops.cause();
	}

	/**
	 * The batch is a bulk operation: observe it from now on, even before its first
	 * command (its scan is work too).
	 * @param operation the operation, a fixed name
	 */
	void bulk(String operation) {
		checkNotFinished();
		this.report.bulk(operation);
		this.report.started();
	}

	/**
	 * The scan of a bulk operation returned keys.
	 */
	void keysMatched(long keys) {
		this.report.keysMatched(keys);
	}

	int slotOf(byte[] key) {
		return this.router.slotOf(key);
	}

	/**
	 * Whether the batch stopped sending (to every server): commands recorded from now on
	 * are {@link Outcome#NOT_SENT} at once.
	 */
	boolean isStopped() {
		return this.stops.isStopped();
	}

	/**
	 * Whether the batch runs on a Redis Cluster, where every command needs a key to be
	 * routed.
	 */
	boolean isCluster() {
		return this.router.isCluster();
	}

	/**
	 * Refuse, before anything is written, a command this batch's mode cannot run.
	 * @param type the command
	 * @param arguments its arguments, its name included
	 */
	void checkCommand(ProtocolKeyword type, int arguments) {
		if (this.settings.exactlyOnce()) {
			ExactlyOnce.check(type, arguments);
		}
	}

	/**
	 * Refuse, before anything is written, a command without a key in an exactly-once
	 * batch on a cluster: its chunk is a script in one hash slot, which the keys choose.
	 * @param type the command
	 * @param slot its slot
	 */
	void checkRoutable(ProtocolKeyword type, int slot) {
		if (slot == Slots.ANY && this.settings.exactlyOnce() && this.router.isCluster()) {
			throw new InvalidDataAccessApiUsageException(Messages.exactlyOnceWithoutKey(type.toString()));
		}
	}

	int slotOf(byte[][] keys) {
		return this.router.slotOf(keys);
	}

	// ------------------------------------------------------------------ recording

	/**
	 * Where to write the next command: the open chunk of the lane that serves the slot.
	 * The command is written there and then handed over with {@link #endCommand}; keys
	 * and values must be serialized before, so that a serializer failure never leaves
	 * half a command.
	 * @param slot the command's slot, from {@link #slotOf(byte[])}
	 * @throws InvalidDataAccessApiUsageException when a transactional batch on a cluster
	 * would span slots
	 */
	ByteBuf startCommand(int slot) {
		checkNotFinished();
		this.report.started();
		if (this.router.isCluster() && this.settings.transactional() && slot >= 0) {
			if (this.transactionSlot == Slots.ANY) {
				this.transactionSlot = slot;
			}
			else if (slot != this.transactionSlot) {
				throw new InvalidDataAccessApiUsageException(
						Messages.transactionSpansSlots(slot, this.transactionSlot));
			}
		}
		int route = (slot == Slots.ANY && this.settings.transactional()) ? this.transactionSlot : slot;
		Lane lane = isStopped() ? this.router.unroutable() : route(route);
		this.current = lane;
		this.commandSlot = route;
		ByteBuf buffer = lane.openFor(route).buffer();
		this.commandStart = buffer.writerIndex();
		return buffer;
	}

	private Lane route(int slot) {
		Lane lane = this.router.lane(slot);
		stopIfUnroutable();
		return lane;
	}

	private void stopIfUnroutable() {
		RuntimeException failure = this.router.takeRouteFailure();
		if (failure != null) {
			this.stops.stop(Messages.noRoute(failure), failure);
		}
	}

	/**
	 * Take the command written since {@link #startCommand(int)}. If the chunk is full it
	 * is sent. Whatever happens elsewhere in the batch (a lost connection, a chunk past
	 * its deadline, an interrupt), this never throws: the batch stops, and this command
	 * and the ones recorded after it are {@link Outcome#NOT_SENT}.
	 * @param type the command
	 * @param output where Lettuce decodes the reply
	 * @param converter turns the decoded reply into the response's value
	 * @param outputs makes a fresh output, so the command can be sent again by a retry
	 * @param idempotent whether a retry may send it again when its outcome is unknown
	 * @return the response
	 */
	<T> CommandResponse<T> endCommand(ProtocolKeyword type, CommandOutput<byte[], byte[], ?> output,
			Function<@Nullable Object, T> converter, Supplier<CommandOutput<byte[], byte[], ?>> outputs,
			boolean idempotent) {
		CommandResponse<T> response = new CommandResponse<>(this.submitted++, type, output, converter);
		Retry retries = this.retry;
		if (retries != null && retries.hasAttempts()) {
			ByteBuf buffer = currentLane().open().buffer();
			byte[] bytes = new byte[buffer.writerIndex() - this.commandStart];
			buffer.getBytes(this.commandStart, bytes);
			response.retryable(new CommandResponse.Recipe(bytes, outputs, this.commandSlot), idempotent, retries);
		}
		enqueue(response);
		return response;
	}

	/**
	 * Record a command that Lettuce built (through {@code RedisTemplate} code): it is
	 * encoded into the open chunk here. It is never sent again by a retry. On a cluster,
	 * a command whose keys span slots is split when that is safe ({@code DEL},
	 * {@code UNLINK}, {@code EXISTS}, {@code TOUCH}, {@code MGET}) and refused otherwise.
	 */
	<T> CommandResponse<T> add(RedisCommand<byte[], byte[], ?> command, Function<@Nullable Object, T> converter,
			boolean replyAwaited) {
		if (isStopped()) {
			CommandResponse<T> response = addNotSent(command.getType());
			// whoever holds the Lettuce command (a template) must not wait for it
			command.completeExceptionally(new RedisException(String.valueOf(this.stops.notSentMessage())));
			return response;
		}
		if (this.settings.exactlyOnce()) {
			CommandArgs<byte[], byte[]> all = command.getArgs();
			ExactlyOnce.check(command.getType(), 1 + ((all != null) ? all.count() : 0));
		}
		int slot = Slots.ANY;
		if (this.router.isCluster()) {
			CommandArgs<byte[], byte[]> args = command.getArgs();
			byte[][] keys = (args != null) ? ClusterKeys.keys(command.getType(), args) : null;
			if (keys != null) {
				slot = Slots.of(keys);
				if (slot == Slots.CROSS) {
					return addSplit(command, keys, converter, replyAwaited);
				}
			}
			else if (args != null) {
				ByteBuffer first = args.getFirstEncodedKey();
				slot = (first != null) ? SlotHash.getSlot(first) : Slots.ANY;
			}
			checkRoutable(command.getType(), slot);
		}
		command.encode(startCommand(slot));
		CommandResponse<T> response = lettuceCommand(command, converter, replyAwaited);
		if (this.router.isCluster()) {
			response.redirectable();
		}
		enqueue(response);
		return response;
	}

	/**
	 * The response of a command Lettuce built. When nobody awaits the Lettuce command
	 * (template calls in a pipeline return {@code null}), only its output is kept, not
	 * the command with its arguments: the bytes are in the chunk already.
	 */
	private <T> CommandResponse<T> lettuceCommand(RedisCommand<byte[], byte[], ?> command,
			Function<@Nullable Object, T> converter, boolean replyAwaited) {
		return replyAwaited ? new CommandResponse<>(this.submitted++, command, converter)
				: new CommandResponse<>(this.submitted++, command.getType(), command.getOutput(), converter);
	}

	private <T> CommandResponse<T> addSplit(RedisCommand<byte[], byte[], ?> command, byte[][] keys,
			Function<@Nullable Object, T> converter, boolean replyAwaited) {
		String commandName = command.getType().toString();
		if (!ClusterKeys.splittable(command.getType())) {
			String message = Messages.crossSlot(commandName, keys);
			command.completeExceptionally(new RedisException(message));
			return addFailed(commandName, message, null);
		}
		checkNotFinished();
		this.report.started();
		CommandResponse<T> whole = lettuceCommand(command, converter, replyAwaited);
		for (SplitCommand.Part part : new SplitCommand(whole, command.getType(), keys, this.ledger).parts()) {
			// if the batch stops on the way, the parts that follow end not sent
			startCommand(part.slot()).writeBytes(part.bytes());
			part.response().redirectable();
			enqueue(part.response());
		}
		return whole;
	}

	/**
	 * Record a command after the batch stopped: it is {@link Outcome#NOT_SENT} at once,
	 * with nothing serialized, written or sent, and costs the ledger a byte.
	 */
	<T> CommandResponse<T> addNotSent(ProtocolKeyword type) {
		checkNotFinished();
		return CommandResponse.notSentAfterStop(this.submitted++, type, String.valueOf(this.stops.notSentMessage()),
				this.ledger);
	}

	/**
	 * Record a command that failed before it could be sent (its key or value could not be
	 * serialized). It takes its place in the batch and is {@link Outcome#FAILED}.
	 */
	<T> CommandResponse<T> addFailed(String commandName, String message, @Nullable Throwable cause) {
		checkNotFinished();
		this.report.started();
		return CommandResponse.failedLocally(this.submitted++, commandName, message, cause, this.ledger);
	}

	private Lane currentLane() {
		Lane lane = this.current;
		if (lane == null) {
			throw new IllegalStateException("No command is being recorded");
		}
		return lane;
	}

	/**
	 * Take the command just written into the lane's open chunk: reject it if an argument
	 * is larger than the server accepts, move it to a new chunk if it would take the open
	 * one over its byte budget, and send the chunk once it is full.
	 */
	private void enqueue(CommandResponse<?> response) {
		Lane lane = currentLane();
		ByteBuf buffer = lane.open().buffer();
		int start = this.commandStart;
		int end = buffer.writerIndex();
		this.commandStart = -1;
		long limit = lane.maxBulkBytes();
		if (end - start > limit) {
			long largest = RespWriter.largestBulk(buffer, start, end);
			if (largest > limit) {
				buffer.writerIndex(start);
				String reason = Messages.tooLarge(largest, limit);
				response.completeExceptionally(new IllegalArgumentException(reason));
				response.settle(Outcome.FAILED, reason, this.ledger);
				return;
			}
		}
		String notSent = this.stops.notSentReason(lane);
		if (notSent == null && !lane.open().isEmpty() && buffer.readableBytes() > lane.maxChunkBytes()) {
			// The byte budget is reached before the chunk size: send what was there
			// before
			// this command, which starts the next chunk.
			byte[] command = new byte[end - start];
			buffer.getBytes(start, command);
			buffer.writerIndex(start);
			lane.sendOpen();
			start = lane.open().buffer().writerIndex();
			lane.open().buffer().writeBytes(command);
			end = lane.open().buffer().writerIndex();
			notSent = this.stops.notSentReason(lane);
		}
		if (notSent != null) {
			lane.open().buffer().writerIndex(start);
			response.settle(Outcome.NOT_SENT, notSent, this.ledger);
			return;
		}
		lane.open().add(response, start, end, this.commandSlot, false);
		if (lane.open().isFull(lane.maxChunkBytes())) {
			lane.sendOpen();
			sendRerouted();
		}
	}

	private void checkNotFinished() {
		if (this.finished) {
			throw new IllegalStateException(Messages.batchComplete());
		}
	}

	/**
	 * Send the open chunks of every server now, partly filled as they are, without
	 * waiting for replies (only for room in the window).
	 */
	void sendOpenChunks() {
		checkNotFinished();
		for (Lane lane : this.router.lanes()) {
			lane.sendAllOpen();
		}
		sendRerouted();
	}

	// ------------------------------------------------------------------ ending

	/**
	 * Send the open chunks and wait for every chunk in flight, keeping the leased
	 * connections: afterwards every command recorded so far has its outcome.
	 */
	void drain() {
		checkNotFinished();
		sendAndSettleEverything();
	}

	/**
	 * Send what is left, wait for every chunk, send again what the retry allows, give the
	 * connections back, and account for every command.
	 * @return the results
	 */
	BatchResults finish() {
		if (!this.finished) {
			sendAndSettleEverything();
			if (this.retry != null) {
				this.retry.finish(this::sendAndSettleEverything);
			}
			close();
		}
		return results();
	}

	/**
	 * Stop the batch because the recording code failed: nothing more is sent, chunks in
	 * flight still get their replies, and connections go back.
	 * @param reason why, for the results
	 * @return the results
	 */
	BatchResults abort(String reason) {
		if (!this.finished) {
			this.stops.stop(reason, null);
			settleEverythingInFlight();
			releaseLeases();
			if (this.retry != null) {
				this.retry.giveUp();
			}
			close();
		}
		return results();
	}

	/**
	 * End the batch after the recording code threw: nothing more is sent, chunks in
	 * flight still get their replies, connections go back. The exception wins, with the
	 * batch outcome attached as a suppressed {@link BatchException} when anything was
	 * recorded.
	 * @param failure what the recording code threw
	 * @return the exception to throw
	 */
	Throwable afterFailure(Throwable failure) {
		BatchResults results = abort(Messages.recordingCodeThrew(failure));
		if (results.size() > 0) {
			failure.addSuppressed(new BatchException(results, abortCause()));
		}
		return failure;
	}

	/**
	 * Finish the batch and return its results if every command succeeded.
	 * @return the results
	 * @throws BatchException otherwise
	 */
	BatchResults complete() {
		BatchResults results = finish();
		if (!results.isSuccess()) {
			throw new BatchException(results, abortCause());
		}
		return results;
	}

	/**
	 * The results of the commands recorded from index {@code from} (inclusive) to
	 * {@code to} (exclusive), indexed from 0; every one of them must have its outcome.
	 */
	BatchResults slice(int from, int to, int chunks, Duration elapsed) {
		return this.ledger.slice(from, to).toResults(name(), chunks, elapsed, stoppedBecause());
	}

	/**
	 * The results: made once, when the batch closes.
	 */
	private BatchResults results() {
		BatchResults made = this.results;
		if (made == null) {
			made = this.ledger.toResults(name(), this.chunksSent, Duration.ofNanos(System.nanoTime() - this.startNanos),
					stoppedBecause());
			this.results = made;
		}
		return made;
	}

	private @Nullable String stoppedBecause() {
		return this.stops.stoppedBecause();
	}

	private void sendAndSettleEverything() {
		do {
			List<Lane> lanes = this.router.lanes();
			for (int i = 0; i < lanes.size(); i++) {
				lanes.get(i).sendAllOpen();
			}
			lanes = this.router.lanes();
			for (int i = 0; i < lanes.size(); i++) {
				lanes.get(i).settleAll();
			}
			sendRerouted();
		}
		while (this.router.anyLaneHasWork());
	}

	private void settleEverythingInFlight() {
		for (Lane lane : this.router.lanes()) {
			lane.settleAll();
		}
		this.router.settleRerouted(this.ledger);
	}

	/**
	 * Give every lane's connection back: one that fails to does not keep the others.
	 */
	private void releaseLeases() {
		List<Lane> lanes = this.router.lanes();
		RuntimeException failure = null;
		for (int i = 0; i < lanes.size(); i++) {
			try {
				lanes.get(i).releaseLease();
			}
			catch (RuntimeException ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	private void close() {
		this.finished = true;
		releaseLeases();
		if (this.stops.isTopologyStale()) {
			// A master was lost: the next batch should find its replica, if one took
			// over.
			this.router.refreshTopology();
		}
		this.report.finish(results(), stoppedBecause());
	}

	// ------------------------------------------------------------------ what the lanes
	// hand back

	private void sendRerouted() {
		this.router.sendRerouted(this.stops.abortReason(), this.ledger);
		stopIfUnroutable();
	}

	@Override
	public @Nullable String notSentReason(Lane lane) {
		return this.stops.notSentReason(lane);
	}

	@Override
	public boolean admit(Lane lane, Chunk chunk) {
		if (this.throttle.admit(chunk.size(), chunk.bytes())) {
			return true;
		}
		this.stops.interrupted();
		return false;
	}

	@Override
	public void unsendable(Lane lane, Chunk chunk, String reason) {
		this.stops.unsendable(lane, chunk, reason);
	}

	@Override
	public void sent(Lane lane, Chunk chunk) {
		this.chunksSent++;
	}

	@Override
	public void settled(Lane lane, ChunkSettlement settlement, boolean connectionAlreadyLost) {
		this.report.chunkSettled(settlement.nanos());
		this.router.reroute(settlement.reroutes());
		if (settlement.topologyStale()) {
			this.stops.topologyChanged();
		}
		if (settlement.interrupted()) {
			this.stops.interrupted();
			return;
		}
		String lost = !settlement.answered() ? Messages.chunkTimedOut(this.settings.timeout())
				: (settlement.unknown() > 0) ? Messages.connectionLost() : null;
		if (lost == null && settlement.refusedForNow() == 0) {
			return;
		}
		if (this.retry != null && this.retry.hasAttempts()) {
			this.retry.lost(lane, lost, settlement.connectionFailure(), connectionAlreadyLost);
		}
		else if (lost != null) {
			this.stops.stopLane(lane, lost, settlement.connectionFailure());
		}
	}

	@Override
	public void leased(Lane lane, Lease lease) {
		this.report.leased(lease.path().tag());
	}

	@Override
	public void borrowFailed(Lane lane, RuntimeException failure) {
		if (this.router.isCluster() && !this.router.topologyRefreshed()) {
			// The master may be gone and a replica serve its slots now: nothing of the
			// lane's waiting chunks was sent, so they go where the topology, read again,
			// sends their slots.
			this.router.refreshTopology();
			lane.rerouteOnStop();
		}
		else if (this.retry != null && this.retry.attempt()) {
			// the lane borrows again after the backoff (a server restarting, a pool busy)
			return;
		}
		else if (Thread.currentThread().isInterrupted()) {
			this.stops.interrupted();
			return;
		}
		this.stops.stopLane(lane, Messages.noConnection(lane.address(), failure), failure);
	}

}
