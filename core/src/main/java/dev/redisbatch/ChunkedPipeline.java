package dev.redisbatch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.redisbatch.observation.BatchObservationContext;
import dev.redisbatch.protocol.ClusterKeys;
import dev.redisbatch.protocol.RespWriter;
import dev.redisbatch.protocol.Slots;
import io.lettuce.core.RedisException;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.MultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.micrometer.observation.Observation;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * Runs one batch: the chunker, the connection leases, the cluster routing and the outcome
 * accounting.
 * <p>
 * Commands go into lanes, one per server: the only server of a standalone or Sentinel
 * pool, or, on a cluster, the master that serves the command's slot. Each command is
 * encoded, as it is recorded, straight into its lane's open chunk. A chunk is sent in one
 * write when it holds {@code chunkSize} commands or {@code maxChunkBytes} bytes. Up to
 * {@code parallelism} chunks of a lane are in flight at once, pipelined on the lane's one
 * connection, so a chunk does not wait for the previous one's replies before it goes out
 * and the server still runs the commands in the order they were recorded. When
 * {@code parallelism} chunks of a lane are in flight, recording waits for the oldest.
 * Memory is therefore bounded by {@code chunkSize × (parallelism + 1)} commands per
 * server, whatever the size of the batch.
 * <p>
 * Each chunk has its own deadline. Replies arrive in order, so when a chunk is settled
 * the answered commands keep their results and the rest are {@link Outcome#UNKNOWN}. A
 * chunk that lost its connection or passed its deadline stops its lane: its connection
 * leaves the pool, and the lane's commands not yet sent end {@link Outcome#NOT_SENT}.
 * With one server that stops the batch; on a cluster the other masters carry on. Nothing
 * is ever sent twice, except a retry the caller asked for, and commands that a cluster
 * redirected ({@code MOVED}, {@code ASK}) or that could not be sent to a master that is
 * gone: those did not run, and go to the master that serves their slot now.
 * <p>
 * Not thread-safe: a pipeline belongs to the thread that runs the batch.
 */
final class ChunkedPipeline {

	private static final int MAX_REDIRECTS = 5;

	private static final Log logger = LogFactory.getLog(ChunkedPipeline.class);

	private static final byte[] MULTI = encoded(CommandType.MULTI);

	private static final byte[] EXEC = encoded(CommandType.EXEC);

	private static final byte[] ASKING = encoded(CommandType.ASKING);

	private final BatchConnectionPool pool;

	private final boolean cluster;

	private final BatchOptions options;

	private final BatchObservations observations;

	private final BatchObservationContext context;

	private final OutcomeLedger ledger;

	private final String name;

	private final int chunkSize;

	private final int parallelism;

	private final long timeoutNanos;

	private final boolean transactional;

	private final long maxChunkBytes;

	private final long startNanos = System.nanoTime();

	/**
	 * The lanes of a cluster batch, by master; a standalone batch has one.
	 */
	private final Map<NodePool, Lane> lanes = new IdentityHashMap<>();

	/**
	 * The lane of each master of the topology, so that routing a command is an array
	 * lookup and an identity lookup.
	 */
	private final Map<RedisClusterNode, Lane> lanesByNode = new IdentityHashMap<>();

	private final ArrayDeque<Reroute> reroutes = new ArrayDeque<>();

	private @Nullable Lane single;

	private @Nullable Lane unroutable;

	private @Nullable Observation observation;

	private @Nullable Lane current;

	private int commandStart = -1;

	private int commandSlot = Slots.ANY;

	private int submitted;

	private int chunksSent;

	private CommandResponse.Retries retries;

	private int retryAttemptsLeft;

	private List<CommandResponse<?>> pending = new ArrayList<>();

	private @Nullable String abortReason;

	private @Nullable Throwable abortCause;

	private @Nullable String laneFailure;

	private @Nullable Throwable laneFailureCause;

	private @Nullable BatchException abortSignal;

	private boolean topologyRefreshed;

	private boolean topologyStale;

	private int transactionSlot = Slots.ANY;

	private boolean finished;

	ChunkedPipeline(BatchConnectionPool pool, BatchOptions options, BatchObservations observations) {
		this(pool, options, observations, new OutcomeLedger(), null);
	}

	/**
	 * A pass that sends a batch's pending commands again: it shares the batch's ledger
	 * and observation, and the batch decides whether its commands are retried once more.
	 */
	private ChunkedPipeline(ChunkedPipeline batch) {
		this(batch.pool, batch.options, BatchObservations.NONE, batch.ledger, batch.context);
		this.retries = batch.retries;
	}

	private ChunkedPipeline(BatchConnectionPool pool, BatchOptions options, BatchObservations observations,
			OutcomeLedger ledger, @Nullable BatchObservationContext context) {
		this.pool = pool;
		this.cluster = pool.topology() == BatchConnectionPool.Topology.CLUSTER;
		this.options = options;
		this.observations = observations;
		this.ledger = ledger;
		this.name = require(options.name());
		this.chunkSize = require(options.chunkSize());
		this.parallelism = require(options.parallelism());
		this.timeoutNanos = require(options.timeout()).toNanos();
		this.transactional = require(options.transactional());
		this.maxChunkBytes = require(options.maxChunkBytes());
		this.retryAttemptsLeft = require(options.retryAttempts());
		this.context = (context != null) ? context
				: new BatchObservationContext(this.name,
						this.transactional ? BatchObservationContext.Mode.TRANSACTION
								: BatchObservationContext.Mode.PIPELINE,
						pool.topology().name().toLowerCase(Locale.ROOT));
		this.retries = this::deferForRetry;
		if (!this.cluster) {
			this.single = laneFor(pool.server());
			this.current = this.single;
		}
	}

	private static <T> T require(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("Options must be resolved against the template defaults first");
		}
		return value;
	}

	String name() {
		return this.name;
	}

	int submitted() {
		return this.submitted;
	}

	int chunksSent() {
		return this.chunksSent;
	}

	@Nullable Throwable abortCause() {
		return (this.abortCause != null) ? this.abortCause : this.laneFailureCause;
	}

	// ------------------------------------------------------------------ routing

	/**
	 * The slot that routes a command with this key: on a cluster its hash slot, otherwise
	 * {@link #Slots.ANY} (no hashing needed).
	 */
	int slotOf(byte[] key) {
		return this.cluster ? Slots.of(key) : Slots.ANY;
	}

	/**
	 * The slot that routes a command with these keys: {@link #Slots.CROSS} when they hash
	 * to different slots of a cluster.
	 */
	int slotOf(byte[][] keys) {
		return this.cluster ? Slots.of(keys) : Slots.ANY;
	}

	/**
	 * Why a command whose keys span slots is not sent. It names the slots, never the
	 * keys.
	 */
	static String crossSlotMessage(String command, byte[][] keys) {
		return "not sent: the keys of " + command + " hash to different slots of the cluster " + Slots.distinct(keys)
				+ ", and one command can only reach the keys of one slot. Put keys that go together under one hash "
				+ "tag, such as {order:42}:items and {order:42}:total";
	}

	private Lane lane(int slot) {
		Lane only = this.single;
		if (only != null) {
			return only;
		}
		RedisClusterNode master;
		try {
			master = this.pool.masterNode((slot >= 0) ? slot : 0);
		}
		catch (RuntimeException ex) {
			stop("no route in the cluster: " + CommandResponse.describe(ex), ex);
			return unroutable();
		}
		Lane lane = this.lanesByNode.get(master);
		if (lane == null) {
			lane = laneFor(this.pool.master(master));
			this.lanesByNode.put(master, lane);
		}
		return lane;
	}

	/**
	 * Where commands go once the batch has stopped: nowhere (they end not sent).
	 */
	private Lane unroutable() {
		Lane nowhere = this.unroutable;
		if (nowhere == null) {
			nowhere = new Lane(null);
			this.unroutable = nowhere;
		}
		return nowhere;
	}

	private Lane laneFor(NodePool node) {
		return this.lanes.computeIfAbsent(node, Lane::new);
	}

	/**
	 * Read the cluster topology again, once per batch, and forget the routes learned from
	 * the old one.
	 */
	private void refreshTopology() {
		if (!this.topologyRefreshed) {
			this.topologyRefreshed = true;
			this.pool.refreshTopology();
			this.lanesByNode.clear();
		}
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
		observeFromFirstCommand();
		if (this.cluster && this.transactional && slot >= 0) {
			if (this.transactionSlot == Slots.ANY) {
				this.transactionSlot = slot;
			}
			else if (slot != this.transactionSlot) {
				throw new InvalidDataAccessApiUsageException("A transactional batch on Redis Cluster runs MULTI/EXEC "
						+ "on one master, so all its keys must hash to one slot, but this command's key is in slot "
						+ slot + " and the batch's first key in slot " + this.transactionSlot
						+ ". Put the keys under one hash tag, such as {user:42}:name and {user:42}:visits, or turn "
						+ "transactional off. Nothing of this command was sent.");
			}
		}
		int route = (slot == Slots.ANY && this.transactional) ? this.transactionSlot : slot;
		Lane lane = (this.abortReason == null) ? lane(route) : unroutable();
		// a batch that could not route the command stops here, before recording it
		throwIfJustAborted();
		this.current = lane;
		this.commandSlot = route;
		this.commandStart = lane.open.buffer.writerIndex();
		return lane.open.buffer;
	}

	/**
	 * Take the command written since {@link #startCommand(int)}. If the chunk is full it
	 * is sent; if the batch has to stop (no connection, a lost chunk, an interrupt) this
	 * throws a {@link BatchException} so that the recording code stops too.
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
		if (this.retryAttemptsLeft > 0) {
			ByteBuf buffer = currentLane().open.buffer;
			int start = this.commandStart;
			byte[] bytes = new byte[buffer.writerIndex() - start];
			buffer.getBytes(start, bytes);
			response.retryable(new CommandResponse.Recipe(bytes, outputs, this.commandSlot), idempotent, this.retries);
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
	<T> CommandResponse<T> add(RedisCommand<byte[], byte[], ?> command, Function<@Nullable Object, T> converter) {
		int slot = Slots.ANY;
		if (this.cluster) {
			CommandArgs<byte[], byte[]> args = command.getArgs();
			byte[][] keys = (args != null) ? ClusterKeys.keys(command.getType(), args) : null;
			if (keys != null) {
				slot = slotOf(keys);
				if (slot == Slots.CROSS) {
					return addSplit(command, keys, converter);
				}
			}
			else if (args != null) {
				ByteBuffer first = args.getFirstEncodedKey();
				slot = (first != null) ? io.lettuce.core.cluster.SlotHash.getSlot(first) : Slots.ANY;
			}
		}
		command.encode(startCommand(slot));
		CommandResponse<T> response = new CommandResponse<>(this.submitted++, command, converter);
		response.redirectable(this.cluster);
		enqueue(response);
		return response;
	}

	private <T> CommandResponse<T> addSplit(RedisCommand<byte[], byte[], ?> command, byte[][] keys,
			Function<@Nullable Object, T> converter) {
		String commandName = command.getType().toString();
		if (!ClusterKeys.splittable(command.getType())) {
			String message = crossSlotMessage(commandName, keys);
			command.completeExceptionally(new RedisException(message));
			return addFailed(commandName, message, null);
		}
		checkNotFinished();
		observeFromFirstCommand();
		CommandResponse<T> whole = new CommandResponse<>(this.submitted++, command, converter);
		List<SplitCommand.Part> parts = new SplitCommand(whole, command.getType(), keys, this.ledger).parts();
		int next = 0;
		try {
			for (; next < parts.size(); next++) {
				SplitCommand.Part part = parts.get(next);
				startCommand(part.slot()).writeBytes(part.bytes());
				part.response().redirectable(true);
				enqueue(part.response());
			}
		}
		catch (BatchException ex) {
			// the batch stopped: the parts not recorded yet are not sent either
			for (int i = next + 1; i < parts.size(); i++) {
				parts.get(i)
					.response()
					.settle(Outcome.NOT_SENT, notSentReason(String.valueOf(stoppedBecause())), this.ledger);
			}
			throw ex;
		}
		return whole;
	}

	/**
	 * Record a command that failed before it could be sent (its key or value could not be
	 * serialized). It takes its place in the batch and is {@link Outcome#FAILED}.
	 */
	<T> CommandResponse<T> addFailed(String commandName, String message, @Nullable Throwable cause) {
		checkNotFinished();
		observeFromFirstCommand();
		return CommandResponse.failedLocally(this.submitted++, commandName, message, cause, this.ledger);
	}

	/**
	 * Take the command just written into the lane's open chunk: reject it if an argument
	 * is larger than the server accepts, move it to a new chunk if it would take the open
	 * one over its byte budget, and send the chunk once it is full.
	 */
	private Lane currentLane() {
		Lane lane = this.current;
		if (lane == null) {
			throw new IllegalStateException("No command is being recorded");
		}
		return lane;
	}

	private void enqueue(CommandResponse<?> response) {
		Lane lane = currentLane();
		ByteBuf buffer = lane.open.buffer;
		int start = this.commandStart;
		int end = buffer.writerIndex();
		this.commandStart = -1;
		long limit = (lane.node != null) ? lane.node.maxBulkBytes() : NodePool.DEFAULT_MAX_BULK_BYTES;
		if (end - start > limit) {
			long largest = RespWriter.largestBulk(buffer, start, end);
			if (largest > limit) {
				buffer.writerIndex(start);
				String reason = "not sent: an argument of " + largest + " bytes is larger than the server's "
						+ "proto-max-bulk-len of " + limit + " bytes";
				response.completeExceptionally(new IllegalArgumentException(reason));
				response.settle(Outcome.FAILED, reason, this.ledger);
				return;
			}
		}
		String notSent = notSentReason(lane);
		if (notSent == null && lane.open.size > 0 && buffer.readableBytes() > this.maxChunkBytes) {
			// The byte budget is reached before the chunk size: send what was there
			// before this command, which starts the next chunk.
			byte[] command = new byte[end - start];
			buffer.getBytes(start, command);
			buffer.writerIndex(start);
			sendOpenChunk(lane);
			throwIfJustAborted();
			start = lane.open.buffer.writerIndex();
			lane.open.buffer.writeBytes(command);
			end = lane.open.buffer.writerIndex();
			notSent = notSentReason(lane);
		}
		if (notSent != null) {
			lane.open.buffer.writerIndex(start);
			response.settle(Outcome.NOT_SENT, notSent, this.ledger);
			return;
		}
		lane.open.add(response, start, end, this.commandSlot, false);
		if (lane.open.size == this.chunkSize || lane.open.buffer.readableBytes() >= this.maxChunkBytes) {
			sendOpenChunk(lane);
			rerouteWaiting();
			throwIfJustAborted();
		}
	}

	private void observeFromFirstCommand() {
		if (this.observation == null) {
			this.observation = this.observations.start(this.context);
		}
	}

	private void checkNotFinished() {
		if (this.finished) {
			throw new IllegalStateException(
					"The batch is complete: record commands inside the batch callback, not after it returned");
		}
	}

	// ------------------------------------------------------------------ ending

	/**
	 * Send the open chunks and wait for every chunk in flight, keeping the leased
	 * connections: afterwards every command recorded so far has its outcome.
	 */
	void drain() {
		checkNotFinished();
		sendAndSettleEverything();
		throwIfJustAborted();
	}

	/**
	 * Send what is left, wait for every chunk, retry what the options allow, give the
	 * connections back, and account for every command.
	 * @return the results
	 */
	BatchResults finish() {
		if (!this.finished) {
			sendAndSettleEverything();
			releaseLeases();
			retryPending();
			close();
		}
		return results();
	}

	private void sendAndSettleEverything() {
		do {
			for (Lane lane : List.copyOf(this.lanes.values())) {
				sendOpenChunk(lane);
			}
			for (Lane lane : List.copyOf(this.lanes.values())) {
				while (!lane.inFlight.isEmpty()) {
					settleOldest(lane);
				}
			}
			rerouteWaiting();
		}
		while (this.lanes.values().stream().anyMatch((lane) -> lane.open.size > 0 || !lane.inFlight.isEmpty()));
	}

	/**
	 * Stop the batch because the recording code failed: nothing more is sent, chunks in
	 * flight still get their replies, and connections go back.
	 * @param reason why, for the results
	 * @return the results
	 */
	BatchResults abort(String reason) {
		if (!this.finished) {
			stop(reason, null);
			settleEverythingInFlight();
			releaseLeases();
			this.retryAttemptsLeft = 0;
			this.pending.forEach((response) -> response.settlePending(this.ledger));
			this.pending.clear();
			close();
		}
		return results();
	}

	/**
	 * End the batch after the recording code threw: nothing more is sent, chunks in
	 * flight still get their replies, connections go back. If the exception is this
	 * pipeline's own stop signal, the result is a {@link BatchException} with the final
	 * results; otherwise the exception itself wins, with the batch outcome attached as a
	 * suppressed {@link BatchException} when anything was recorded.
	 * @param failure what the recording code threw
	 * @return the exception to throw
	 */
	Throwable afterFailure(Throwable failure) {
		BatchResults results = abort("the recording code threw " + failure.getClass().getSimpleName());
		if (isAbortSignal(failure)) {
			return new BatchException(results, abortCause());
		}
		if (results.size() > 0) {
			failure.addSuppressed(new BatchException(results, abortCause()));
		}
		return failure;
	}

	/**
	 * Whether the given exception is the signal this pipeline threw to stop the recording
	 * code.
	 */
	boolean isAbortSignal(Throwable ex) {
		return ex == this.abortSignal;
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
		return this.ledger.slice(from, to).toResults(this.name, chunks, elapsed, stoppedBecause());
	}

	private BatchResults results() {
		return this.ledger.toResults(this.name, this.chunksSent, Duration.ofNanos(System.nanoTime() - this.startNanos),
				stoppedBecause());
	}

	private @Nullable String stoppedBecause() {
		return (this.abortReason != null) ? this.abortReason : this.laneFailure;
	}

	// ------------------------------------------------------------------ sending

	private void sendOpenChunk(Lane lane) {
		Chunk chunk = lane.open;
		if (chunk.size == 0) {
			return;
		}
		lane.open = lane.newChunk();
		while (true) {
			String notSent = notSentReason(lane);
			if (notSent != null) {
				if (lane.rerouteOnStop && this.abortReason == null) {
					chunk.rerouteAll(String.valueOf(lane.stopReason));
				}
				else {
					chunk.settleNotSent(notSent);
				}
				return;
			}
			Lease lease = lease(lane);
			if (lease == null) {
				continue;
			}
			if (!lease.connection.isOpen()) {
				// It broke (for example the server restarted): nothing of this chunk was
				// sent on it, so another connection can take the chunk.
				breakLease(lane, lease);
				continue;
			}
			if (chunk.dispatch(lease)) {
				lease.inFlight++;
				this.chunksSent++;
				lane.inFlight.add(chunk);
			}
			else {
				// The connection closed between the check and the write, and refused the
				// whole write: nothing went out.
				breakLease(lane, lease);
				chunk.settleNotSent("not sent: the connection closed just before the write");
			}
			return;
		}
	}

	/**
	 * The lane's connection for the next chunk, once fewer than {@code parallelism} of
	 * its chunks are in flight (waiting for the oldest otherwise). A lane has one
	 * connection at a time, so the server runs its chunks in the order they were
	 * recorded; when that connection broke, the chunks still in flight on it settle
	 * before another is borrowed. Returns {@code null} when the lane was stopped while
	 * waiting.
	 */
	private @Nullable Lease lease(Lane lane) {
		while (notSentReason(lane) == null) {
			if (lane.inFlight.size() >= this.parallelism) {
				settleOldest(lane);
				continue;
			}
			Lease current = lane.lease;
			if (current != null && !current.broken) {
				return current;
			}
			if (!lane.inFlight.isEmpty()) {
				settleOldest(lane);
				continue;
			}
			return borrow(lane);
		}
		return null;
	}

	private @Nullable Lease borrow(Lane lane) {
		try {
			Lease lease = new Lease(lane.requireNode().borrow());
			lane.lease = lease;
			return lease;
		}
		catch (RuntimeException ex) {
			if (this.cluster && !this.topologyRefreshed) {
				// The master may be gone and a replica serve its slots now: nothing of
				// the lane's waiting chunks was sent, so they go where the topology, read
				// again, sends their slots.
				refreshTopology();
				lane.rerouteOnStop = true;
			}
			stopLane(lane,
					"no batch connection to " + lane.requireNode().address() + ": " + CommandResponse.describe(ex), ex);
			return null;
		}
	}

	/**
	 * Close a connection that broke or may still receive replies: it leaves the pool at
	 * once.
	 */
	private void breakLease(Lane lane, Lease lease) {
		if (!lease.broken) {
			lease.broken = true;
			lane.requireNode().invalidate(lease.connection);
		}
	}

	private void releaseLeases() {
		for (Lane lane : this.lanes.values()) {
			Lease lease = lane.lease;
			if (lease != null && !lease.broken) {
				lane.requireNode().release(lease.connection);
			}
			lane.lease = null;
		}
	}

	private void settleEverythingInFlight() {
		for (Lane lane : List.copyOf(this.lanes.values())) {
			while (!lane.inFlight.isEmpty()) {
				settleOldest(lane);
			}
		}
		while (!this.reroutes.isEmpty()) {
			Reroute reroute = this.reroutes.poll();
			reroute.response().settle(Outcome.NOT_SENT, notSentReason(reroute.why()), this.ledger);
		}
	}

	private void settleOldest(Lane lane) {
		Chunk chunk = lane.inFlight.poll();
		if (chunk == null) {
			return;
		}
		boolean interrupted = Thread.currentThread().isInterrupted();
		boolean complete = !interrupted && chunk.await();
		interrupted = interrupted || Thread.currentThread().isInterrupted();
		String noReply = interrupted ? "sent, but the batch was interrupted before its reply (it may have run)"
				: "sent, but no reply within the chunk timeout of " + Duration.ofNanos(this.timeoutNanos)
						+ " (it may have run)";
		Throwable connectionFailure = chunk.connectionFailure();
		int unknown = chunk.settle(noReply);
		this.context.chunkCompleted(System.nanoTime() - chunk.sentAt);
		Lease lease = chunk.lease();
		lease.inFlight--;
		boolean clean = complete && connectionFailure == null && lease.connection.isOpen() && !chunk.readOnly;
		if (clean) {
			lane.recycle(chunk.buffer);
		}
		else {
			// Unanswered commands may still be on the wire (or the server turned into a
			// replica): the connection never serves another chunk, and the chunk's
			// buffer is never reused.
			breakLease(lane, lease);
		}
		if (interrupted) {
			stop("the thread was interrupted", new InterruptedException("batch interrupted"));
		}
		else if (!complete) {
			stopLane(lane, "a chunk got no reply within its timeout of " + Duration.ofNanos(this.timeoutNanos), null);
		}
		else if (unknown > 0) {
			stopLane(lane, "a chunk lost its connection before every reply came (when the server closes it, its log "
					+ "says why: client-output-buffer-limit and client-query-buffer-limit are common causes, and a "
					+ "smaller chunk-size or max-chunk-bytes keeps a chunk under them)", connectionFailure);
		}
	}

	/**
	 * Stop the whole batch: nothing more is sent anywhere.
	 */
	private void stop(String reason, @Nullable Throwable cause) {
		if (this.abortReason != null) {
			return;
		}
		this.abortReason = reason;
		this.abortCause = cause;
		for (Lane lane : this.lanes.values()) {
			Chunk unsent = lane.open;
			lane.open = lane.newChunk();
			unsent.settleNotSent(notSentReason(reason));
		}
	}

	/**
	 * Stop sending to one server. With one server that stops the batch; on a cluster the
	 * other masters carry on, the topology is read again when the batch ends, and the
	 * lane's commands not yet sent end {@link Outcome#NOT_SENT} (or, when the lane asks
	 * for it, go where the topology sends their slots now).
	 */
	private void stopLane(Lane lane, String reason, @Nullable Throwable cause) {
		if (!this.cluster) {
			stop(reason, cause);
			return;
		}
		if (lane.stopReason != null) {
			return;
		}
		lane.stopReason = reason;
		this.topologyStale = true;
		if (this.laneFailure == null) {
			this.laneFailure = "master " + lane.requireNode().address() + ": " + reason;
			this.laneFailureCause = cause;
		}
		Chunk unsent = lane.open;
		lane.open = lane.newChunk();
		if (lane.rerouteOnStop) {
			unsent.rerouteAll("its master was unreachable");
		}
		else {
			unsent.settleNotSent(notSentReason(lane));
		}
	}

	/**
	 * Send the commands that a cluster redirected, or that could not reach their master,
	 * to the master that serves their slot now. They did not run, so this is not a second
	 * execution.
	 */
	private void rerouteWaiting() {
		while (!this.reroutes.isEmpty()) {
			Reroute reroute = this.reroutes.poll();
			CommandResponse<?> response = reroute.response();
			if (this.abortReason != null) {
				response.settle(Outcome.NOT_SENT, notSentReason(this.abortReason), this.ledger);
				continue;
			}
			if (response.redirected() > MAX_REDIRECTS) {
				response.settle(Outcome.FAILED,
						"not run: redirected more than " + MAX_REDIRECTS
								+ " times while the cluster topology changed (last: " + reroute.why() + ")",
						this.ledger);
				continue;
			}
			Lane target;
			if (reroute.host() != null) {
				if (!reroute.asking()) {
					refreshTopology();
				}
				target = laneFor(this.pool.master(reroute.host(), reroute.port()));
			}
			else {
				target = lane(reroute.slot());
			}
			String notSent = notSentReason(target);
			if (notSent != null) {
				response.settle(Outcome.NOT_SENT, notSent, this.ledger);
				continue;
			}
			ByteBuf buffer = target.open.buffer;
			if (reroute.asking()) {
				buffer.writeBytes(ASKING);
			}
			int start = buffer.writerIndex();
			buffer.writeBytes(reroute.bytes());
			target.open.add(response, start, buffer.writerIndex(), reroute.slot(), reroute.asking());
			if (target.open.size >= this.chunkSize || buffer.readableBytes() >= this.maxChunkBytes) {
				sendOpenChunk(target);
			}
		}
	}

	private void throwIfJustAborted() {
		if (this.abortReason != null && this.abortSignal == null) {
			// Settle what is still in flight so the signal's results are complete so far.
			settleEverythingInFlight();
			this.abortSignal = new BatchException(results(), this.abortCause);
			throw this.abortSignal;
		}
	}

	/**
	 * Why a command for this lane is not sent, or {@code null} when it can be.
	 */
	private @Nullable String notSentReason(Lane lane) {
		if (this.abortReason != null) {
			return notSentReason(this.abortReason);
		}
		if (lane.stopReason != null) {
			return "not sent: the batch stopped sending to " + lane.requireNode().address() + " (" + lane.stopReason
					+ ")";
		}
		return null;
	}

	private static String notSentReason(String why) {
		return "not sent: the batch stopped early (" + why + ")";
	}

	// ------------------------------------------------------------------ retries

	/**
	 * Whether a command, about to end with the given outcome, is sent again: not sent, or
	 * unknown and idempotent, while retry attempts are left.
	 */
	private boolean deferForRetry(CommandResponse<?> response, Outcome outcome) {
		boolean again = outcome == Outcome.NOT_SENT || (outcome == Outcome.UNKNOWN && response.isIdempotent());
		if (again && this.retryAttemptsLeft > 0) {
			this.pending.add(response);
			return true;
		}
		return false;
	}

	/**
	 * Send the pending commands again, after the backoff, in passes of their own, until
	 * none is pending or no attempt is left; then their last outcome is final.
	 */
	private void retryPending() {
		while (!this.pending.isEmpty() && this.retryAttemptsLeft > 0 && backOff()) {
			this.retryAttemptsLeft--;
			if (this.topologyStale) {
				refreshTopology();
			}
			List<CommandResponse<?>> again = this.pending;
			this.pending = new ArrayList<>();
			ChunkedPipeline pass = new ChunkedPipeline(this);
			int resent = 0;
			try {
				for (; resent < again.size(); resent++) {
					pass.resend(again.get(resent));
				}
			}
			catch (BatchException ex) {
				if (!pass.isAbortSignal(ex)) {
					throw ex;
				}
				if (again.get(resent).isSettled()) {
					// the command that stopped the pass was recorded, and has its outcome
					resent++;
				}
			}
			for (int i = resent; i < again.size(); i++) {
				again.get(i)
					.settle(Outcome.NOT_SENT, notSentReason(String.valueOf(pass.stoppedBecause())), this.ledger);
			}
			pass.finish();
			this.chunksSent += pass.chunksSent;
			this.abortReason = pass.abortReason;
			this.abortCause = pass.abortCause;
			this.laneFailure = pass.laneFailure;
			this.laneFailureCause = pass.laneFailureCause;
		}
		this.retryAttemptsLeft = 0;
		for (CommandResponse<?> response : this.pending) {
			response.settlePending(this.ledger);
		}
		this.pending.clear();
	}

	/**
	 * Send a pending command again, from its recipe, with its original response.
	 */
	private void resend(CommandResponse<?> response) {
		CommandResponse.Recipe recipe = response.recipe();
		startCommand(recipe.slot()).writeBytes(recipe.bytes());
		response.resend(recipe.output().get());
		enqueue(response);
	}

	private boolean backOff() {
		if (Thread.currentThread().isInterrupted()) {
			return false;
		}
		try {
			TimeUnit.NANOSECONDS.sleep(require(this.options.retryBackoff()).toNanos());
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	// ------------------------------------------------------------------ reporting

	private void close() {
		this.finished = true;
		releaseLeases();
		if (this.topologyStale) {
			// A master was lost: the next batch should find its replica, if one took
			// over.
			refreshTopology();
		}
		report(results());
	}

	/**
	 * Record the observation and log the outcome: counts and timing, never keys or
	 * values.
	 */
	private void report(BatchResults results) {
		Observation current = this.observation;
		if (current == null) {
			return;
		}
		this.context.setResults(results.count(Outcome.SUCCESS), results.count(Outcome.FAILED),
				results.count(Outcome.UNKNOWN), results.count(Outcome.NOT_SENT), results.chunks());
		current.stop();
		if (results.count(Outcome.UNKNOWN) > 0) {
			logger.warn("Batch '" + this.name + "' ended with " + results.count(Outcome.UNKNOWN)
					+ " commands in an UNKNOWN state: they were sent but got no reply, so they may or may not have run ("
					+ stoppedBecause() + "). " + results.summary());
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Batch '" + this.name + "' ended: " + results.summary()
					+ ((stoppedBecause() != null) ? "; stopped early: " + stoppedBecause() : ""));
		}
	}

	private static byte[] encoded(ProtocolKeyword command) {
		ByteBuf buffer = Unpooled.buffer(32);
		RespWriter.array(buffer, 1);
		RespWriter.bulk(buffer, command);
		byte[] bytes = new byte[buffer.readableBytes()];
		buffer.readBytes(bytes);
		return bytes;
	}

	/**
	 * The commands of one server: its open chunk, its chunks in flight and the connection
	 * the batch leased from its pool.
	 */
	private final class Lane {

		/**
		 * The server, or {@code null} for the lane that takes commands of a batch that
		 * could not route them (they all end not sent).
		 */
		private final @Nullable NodePool node;

		private final ArrayDeque<Chunk> inFlight = new ArrayDeque<>();

		private @Nullable Lease lease;

		private final ArrayDeque<ByteBuf> spareBuffers = new ArrayDeque<>();

		private Chunk open;

		private @Nullable String stopReason;

		private boolean rerouteOnStop;

		Lane(@Nullable NodePool node) {
			this.node = node;
			this.open = newChunk();
		}

		NodePool requireNode() {
			NodePool server = this.node;
			if (server == null) {
				throw new IllegalStateException("The batch could not route this command");
			}
			return server;
		}

		Chunk newChunk() {
			ByteBuf buffer = this.spareBuffers.poll();
			if (buffer == null) {
				buffer = Unpooled.buffer(Math.min(ChunkedPipeline.this.chunkSize, 1024) * 48);
			}
			if (ChunkedPipeline.this.transactional) {
				buffer.writeBytes(MULTI);
			}
			return new Chunk(this, ChunkedPipeline.this.chunkSize, buffer);
		}

		void recycle(ByteBuf buffer) {
			if (this.spareBuffers.size() <= ChunkedPipeline.this.parallelism
					&& buffer.capacity() <= 4 * ChunkedPipeline.this.maxChunkBytes) {
				buffer.clear();
				this.spareBuffers.push(buffer);
			}
		}

	}

	/**
	 * A connection this batch holds, and how many of its chunks are in flight on it.
	 */
	private static final class Lease {

		private final StatefulConnection<byte[], byte[]> connection;

		private int inFlight;

		private boolean broken;

		Lease(StatefulConnection<byte[], byte[]> connection) {
			this.connection = connection;
		}

	}

	/**
	 * A command that goes to another master than the one it was written for: after a
	 * {@code MOVED} or {@code ASK} reply (to the master the reply names), or because its
	 * master could not be reached (to the master the topology names now, by slot).
	 *
	 * @param response the command
	 * @param bytes the command as it goes on the wire
	 * @param slot its slot
	 * @param host the master the reply named, or {@code null} to route by slot
	 * @param port that master's port
	 * @param asking whether {@code ASKING} must precede it
	 * @param why the reply or the reason, for messages
	 */
	private record Reroute(CommandResponse<?> response, byte[] bytes, int slot, @Nullable String host, int port,
			boolean asking, String why) {

	}

	/**
	 * A chunk of commands, encoded in one buffer and sent in one write on one connection.
	 * It counts down as its commands complete, and its thread waits for zero.
	 */
	private final class Chunk implements CommandResponse.Countdown {

		@SuppressWarnings("rawtypes")
		private static final AtomicIntegerFieldUpdater<Chunk> REMAINING = AtomicIntegerFieldUpdater
			.newUpdater(Chunk.class, "remaining");

		private final Lane lane;

		private final int capacity;

		private final ByteBuf buffer;

		private CommandResponse<?>[] responses;

		/**
		 * On a cluster, where each command is in the buffer and its slot, so that a
		 * redirected command can be sent elsewhere; {@code null} otherwise.
		 */
		private int @Nullable [] bounds;

		private int @Nullable [] slots;

		private @Nullable List<Integer> askingBefore;

		private int size;

		private volatile int remaining;

		private volatile @Nullable Thread waiter;

		private @Nullable Lease lease;

		private long sentAt;

		private long deadline;

		private boolean readOnly;

		private @Nullable AsyncCommand<byte[], byte[], TransactionResult> exec;

		Chunk(Lane lane, int capacity, ByteBuf buffer) {
			this.lane = lane;
			this.capacity = capacity;
			this.buffer = buffer;
			this.responses = new CommandResponse<?>[Math.min(capacity, 64)];
			if (ChunkedPipeline.this.cluster) {
				this.bounds = new int[this.responses.length * 2];
				this.slots = new int[this.responses.length];
			}
		}

		void add(CommandResponse<?> response, int start, int end, int slot, boolean asking) {
			if (this.size == this.responses.length) {
				int grown = Math.max(this.size + 1, Math.min(this.capacity, this.size * 2));
				this.responses = Arrays.copyOf(this.responses, grown);
				if (this.bounds != null && this.slots != null) {
					this.bounds = Arrays.copyOf(this.bounds, grown * 2);
					this.slots = Arrays.copyOf(this.slots, grown);
				}
			}
			int[] where = this.bounds;
			int[] slotOf = this.slots;
			if (where != null && slotOf != null) {
				where[this.size * 2] = start;
				where[this.size * 2 + 1] = end;
				slotOf[this.size] = slot;
			}
			if (asking) {
				if (this.askingBefore == null) {
					this.askingBefore = new ArrayList<>();
				}
				this.askingBefore.add(this.size);
			}
			this.responses[this.size++] = response;
		}

		Lease lease() {
			Lease current = this.lease;
			if (current == null) {
				throw new IllegalStateException("Chunk was not sent");
			}
			return current;
		}

		@Override
		public void countDown() {
			if (REMAINING.decrementAndGet(this) == 0) {
				Thread thread = this.waiter;
				if (thread != null) {
					LockSupport.unpark(thread);
				}
			}
		}

		/**
		 * Write the chunk on the leased connection. Returns {@code false} when the
		 * connection refused the whole write (it was closed), so nothing was sent.
		 */
		boolean dispatch(Lease to) {
			StatefulConnection<byte[], byte[]> target = to.connection;
			this.lease = to;
			this.remaining = this.size;
			List<RedisCommand<byte[], byte[], ?>> commands = new ArrayList<>(this.size + 2);
			if (ChunkedPipeline.this.transactional) {
				// MULTI and EXEC go through Lettuce's own dispatch, which makes EXEC's
				// reply complete the commands in between. MULTI carries the chunk's
				// bytes.
				this.buffer.writeBytes(EXEC);
				commands.add(
						new WireCommand<>(CommandType.MULTI, new StatusOutput<>(ByteArrayCodec.INSTANCE), this.buffer));
				for (int i = 0; i < this.size; i++) {
					this.responses[i].sendWith(this, null);
					commands.add(this.responses[i]);
				}
				this.exec = new WireCommand<>(CommandType.EXEC, new MultiOutput<>(ByteArrayCodec.INSTANCE), null);
				commands.add(this.exec);
				start();
				target.dispatch(commands);
				return !rejected(commands.get(0));
			}
			List<Integer> asking = this.askingBefore;
			for (int i = 0; i < this.size; i++) {
				if (asking != null && asking.contains(i)) {
					// the reply to ASKING is not a command of the batch
					commands.add(new WireCommand<>(CommandType.ASKING, new StatusOutput<>(ByteArrayCodec.INSTANCE),
							(i == 0) ? this.buffer : null));
					this.responses[i].sendWith(this, null);
				}
				else {
					this.responses[i].sendWith(this, (i == 0) ? this.buffer : null);
				}
				commands.add(this.responses[i]);
			}
			start();
			Channel channel = this.lane.requireNode().channelOf(target);
			if (channel == null) {
				target.dispatch(commands);
				return !rejected(commands.get(0));
			}
			// One message for the whole chunk: Lettuce's command handler queues every
			// command for its reply, and the first writes the chunk's bytes. A failed
			// write closes the channel, which completes every queued command.
			if (!channel.isActive()) {
				return false;
			}
			channel.writeAndFlush(commands, channel.voidPromise());
			return true;
		}

		private void start() {
			this.sentAt = System.nanoTime();
			this.deadline = this.sentAt + ChunkedPipeline.this.timeoutNanos;
		}

		/**
		 * Wait until every command (and EXEC) is done, the deadline passes, or the thread
		 * is interrupted (the flag stays set).
		 * @return whether everything is done
		 */
		boolean await() {
			this.waiter = Thread.currentThread();
			while (this.remaining > 0) {
				long left = this.deadline - System.nanoTime();
				if (left <= 0 || Thread.currentThread().isInterrupted()) {
					return false;
				}
				LockSupport.parkNanos(this, left);
			}
			AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
			return transaction == null || waitFor(transaction);
		}

		private boolean waitFor(AsyncCommand<byte[], byte[], TransactionResult> command) {
			long left = this.deadline - System.nanoTime();
			if (command.isDone()) {
				return true;
			}
			if (left <= 0) {
				return false;
			}
			try {
				command.get(left, TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException | CancellationException ex) {
				// completed exceptionally: settle() reads the failure
			}
			catch (TimeoutException ex) {
				return false;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
			return true;
		}

		/**
		 * The failure that completed the last command without a reply (such as a closed
		 * connection), or {@code null}.
		 */
		@Nullable Throwable connectionFailure() {
			AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
			if (transaction != null) {
				Throwable failure = CommandResponse.failureOf(transaction);
				return (failure == null || failure instanceof io.lettuce.core.RedisCommandExecutionException) ? null
						: failure;
			}
			return this.responses[this.size - 1].localFailure();
		}

		/**
		 * Decide the outcome of every command of the chunk, except those a cluster
		 * redirected: they wait to be sent to another master.
		 * @return how many ended {@link Outcome#UNKNOWN}
		 */
		int settle(String noReply) {
			OutcomeLedger ledger = ChunkedPipeline.this.ledger;
			AsyncCommand<byte[], byte[], TransactionResult> transaction = this.exec;
			if (transaction != null && transactionAborted(transaction)) {
				// EXECABORT (a command was refused while queueing) or discarded: nothing
				// in the chunk ran.
				String execError = CommandResponse.errorReply(transaction);
				String reason = (execError != null) ? execError : "transaction discarded";
				for (int i = 0; i < this.size; i++) {
					String own = this.responses[i].errorReply();
					if (own != null && own.startsWith("MOVED ")) {
						ChunkedPipeline.this.topologyStale = true;
					}
					this.responses[i].settle(Outcome.FAILED, (own != null) ? own : reason, ledger);
				}
				return 0;
			}
			// Without an EXEC reply nothing is known about a transaction: its commands
			// stay unknown.
			int unknown = 0;
			for (int i = 0; i < this.size; i++) {
				CommandResponse<?> response = this.responses[i];
				String error = response.errorReply();
				if (error != null) {
					if (this.bounds != null && transaction == null && redirect(i, error)) {
						continue;
					}
					if (error.startsWith("READONLY")) {
						// The server turned into a replica (a failover): its connections
						// must not serve another batch.
						this.readOnly = true;
					}
				}
				if (response.settleFromReply(noReply, ledger) == Outcome.UNKNOWN) {
					unknown++;
				}
			}
			return unknown;
		}

		/**
		 * Send a command that a cluster redirected ({@code MOVED slot host:port} or
		 * {@code ASK slot host:port}) where the reply says: it did not run.
		 */
		private boolean redirect(int i, String error) {
			boolean moved = error.startsWith("MOVED ");
			if (!moved && !error.startsWith("ASK ")) {
				return false;
			}
			String[] parts = error.split(" ");
			int colon = (parts.length == 3) ? parts[2].lastIndexOf(':') : -1;
			if (colon <= 0) {
				return false;
			}
			ChunkedPipeline.this.reroutes
				.add(new Reroute(this.responses[i], bytesOf(i), slotOf(i), parts[2].substring(0, colon),
						Integer.parseInt(parts[2].substring(colon + 1)), !moved, moved ? "MOVED" : "ASK"));
			return true;
		}

		/**
		 * Hand every command of this unsent chunk back for routing by slot.
		 */
		void rerouteAll(String why) {
			for (int i = 0; i < this.size; i++) {
				ChunkedPipeline.this.reroutes
					.add(new Reroute(this.responses[i], bytesOf(i), slotOf(i), null, 0, false, why));
			}
			this.lane.recycle(this.buffer);
		}

		private byte[] bytesOf(int i) {
			int[] where = this.bounds;
			if (where == null) {
				throw new IllegalStateException("Commands are only sent elsewhere on a cluster");
			}
			byte[] bytes = new byte[where[i * 2 + 1] - where[i * 2]];
			this.buffer.getBytes(where[i * 2], bytes);
			return bytes;
		}

		private int slotOf(int i) {
			int[] slotOf = this.slots;
			return (slotOf != null) ? slotOf[i] : Slots.ANY;
		}

		/**
		 * Whether EXEC answered that the transaction did not run: an error (EXECABORT) or
		 * a discarded transaction.
		 */
		private boolean transactionAborted(AsyncCommand<byte[], byte[], TransactionResult> transaction) {
			if (!transaction.isDone()) {
				return false;
			}
			if (CommandResponse.errorReply(transaction) != null) {
				return true;
			}
			if (transaction.isCompletedExceptionally()) {
				return false;
			}
			TransactionResult result = transaction.getNow(null);
			return result != null && result.wasDiscarded();
		}

		void settleNotSent(String reason) {
			for (int i = 0; i < this.size; i++) {
				this.responses[i].settle(Outcome.NOT_SENT, reason, ChunkedPipeline.this.ledger);
			}
			this.lane.recycle(this.buffer);
		}

		/**
		 * Whether the endpoint refused the write as a whole (closed or disconnected
		 * connection): then every command failed synchronously, before anything was
		 * written.
		 */
		private static boolean rejected(RedisCommand<byte[], byte[], ?> first) {
			Throwable failure = (first instanceof CommandResponse<?> response) ? response.localFailure()
					: CommandResponse.failureOf(first);
			if (failure == null || failure.getClass() != RedisException.class) {
				return false;
			}
			String message = String.valueOf(failure.getMessage());
			return message.startsWith("Connection is closed") || message.startsWith("Currently not connected")
					|| message.startsWith("Request queue size exceeded")
					|| message.startsWith("Command buffer size exceeded");
		}

	}

	/**
	 * A command of the batch's own (MULTI, EXEC, ASKING) whose bytes are already in the
	 * chunk's buffer: it writes that buffer if it carries it, and nothing otherwise.
	 */
	private static final class WireCommand<T> extends AsyncCommand<byte[], byte[], T> {

		private @Nullable ByteBuf carries;

		WireCommand(CommandType type, CommandOutput<byte[], byte[], T> output, @Nullable ByteBuf carries) {
			super(new Command<>(type, output));
			this.carries = carries;
		}

		@Override
		public void encode(ByteBuf buffer) {
			ByteBuf bytes = this.carries;
			if (bytes != null) {
				this.carries = null;
				buffer.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
			}
		}

	}

}
