package dev.redisbatch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.netty.buffer.ByteBuf;
import org.jspecify.annotations.Nullable;

/**
 * The commands of a batch for one server: the chunk being recorded, the chunks in flight
 * and the connection leased for them. A lane has one connection at a time, so the server
 * runs its chunks in the order they were recorded. Chunks are pipelined on it while they
 * fit in the window ({@code maxInFlightBytes} request bytes and
 * {@code maxInFlightCommands} commands written but not yet answered); sending one more
 * then waits for the oldest. At least one chunk is always in flight.
 * <p>
 * The lane does the sending; what follows from it (a chunk's settlement, a connection
 * that cannot be had, a chunk that cannot go) it hands to its {@link Events}, the batch,
 * which decides whether the lane or the batch stops.
 */
final class Lane {

	/**
	 * The byte budget of a lane's first chunk: it goes out early, so that the server
	 * starts working while the batch still records, as a client's 8 KB output buffer
	 * would. Each next chunk may take twice as much, up to the batch's
	 * {@code maxChunkBytes} and {@code chunkSize}. A transaction's chunks are whole.
	 */
	static final long FIRST_CHUNK_BYTES = 8 * 1024;

	private final @Nullable NodePool node;

	private final RunSettings settings;

	private final boolean cluster;

	private final boolean sentinel;

	private final OutcomeLedger ledger;

	private final Events events;

	private final ArrayDeque<Chunk> inFlight = new ArrayDeque<>(4);

	private final ChunkBuffers buffers;

	private long inFlightBytes;

	private int inFlightCommands;

	/**
	 * The byte budget of the chunk being recorded.
	 */
	private long chunkBytes;

	private @Nullable Lease lease;

	/**
	 * The chunk being recorded, made when the first command for it comes.
	 */
	private @Nullable Chunk open;

	private @Nullable String stopReason;

	/**
	 * Markers of exactly-once chunks answered on their first write, to remove.
	 */
	private final AcknowledgedMarkers acknowledged;

	private boolean rerouteOnStop;

	/**
	 * On a cluster, for an exactly-once batch: the chunks of other slots than the open
	 * one's; {@code null} otherwise.
	 */
	private final @Nullable SlotChunks parked;

	/**
	 * How many exactly-once chunks the lane framed: the next one's place, which names the
	 * markers of a batch with an id.
	 */
	private int framed;

	/**
	 * A lane.
	 * @param node the server, or {@code null} for the lane of a batch that could not
	 * route its commands (they all end not sent)
	 */
	Lane(@Nullable NodePool node, RunSettings settings, boolean cluster, OutcomeLedger ledger, Events events) {
		this(node, settings, cluster, false, ledger, events);
	}

	/**
	 * A lane.
	 * @param node the server, or {@code null} for the lane of a batch that could not
	 * route its commands (they all end not sent)
	 * @param sentinel whether the server is the master Redis Sentinel names: an
	 * exactly-once chunk it refuses as a replica ({@code READONLY}) goes again to the
	 * master the sentinels name then
	 */
	Lane(@Nullable NodePool node, RunSettings settings, boolean cluster, boolean sentinel, OutcomeLedger ledger,
			Events events) {
		this.node = node;
		this.settings = settings;
		this.cluster = cluster;
		this.sentinel = sentinel;
		this.ledger = ledger;
		this.events = events;
		this.chunkBytes = settings.transactional() ? settings.maxChunkBytes()
				: Math.min(FIRST_CHUNK_BYTES, settings.maxChunkBytes());
		this.parked = (cluster && settings.exactlyOnce()) ? new SlotChunks(settings.maxInFlightBytes()) : null;
		this.acknowledged = new AcknowledgedMarkers(cluster);
		this.buffers = new ChunkBuffers(settings, (this.parked != null) ? SlotChunks.FIRST_BUFFER_BYTES : 0);
	}

	/**
	 * The server's pool.
	 * @throws IllegalStateException for the lane of unroutable commands
	 */
	NodePool node() {
		NodePool server = this.node;
		if (server == null) {
			throw new IllegalStateException("The batch could not route this command");
		}
		return server;
	}

	/**
	 * The server, for messages.
	 */
	String address() {
		return node().address();
	}

	/**
	 * The largest argument the server accepts.
	 */
	long maxBulkBytes() {
		return (this.node != null) ? this.node.maxBulkBytes() : ServerLimits.DEFAULT_MAX_BULK_BYTES;
	}

	/**
	 * The byte budget of a chunk.
	 */
	long maxChunkBytes() {
		return this.chunkBytes;
	}

	/**
	 * Why a command for this lane is not sent (the batch or the lane stopped), or
	 * {@code null} when it can be.
	 */
	@Nullable String notSentReason() {
		return this.events.notSentReason(this);
	}

	/**
	 * Whether this lane has a server (the lane of unroutable commands has none).
	 */
	boolean hasNode() {
		return this.node != null;
	}

	/**
	 * The chunk being recorded.
	 */
	Chunk open() {
		Chunk current = this.open;
		if (current == null) {
			current = newChunk();
			this.open = current;
		}
		return current;
	}

	/**
	 * The chunk being recorded for a slot. On a cluster, an exactly-once batch records
	 * each slot's commands in a chunk of their own: the chunk of another slot is parked
	 * until a command of its slot comes again, and once more than
	 * {@link SlotChunks#MAX_CHUNKS} are parked the oldest is sent.
	 * @param slot the slot of the command about to be recorded
	 */
	Chunk openFor(int slot) {
		SlotChunks waiting = this.parked;
		Chunk current = this.open;
		if (waiting == null || (current != null && !current.isEmpty() && current.slot() == slot)) {
			return open();
		}
		Chunk own = waiting.take(slot);
		if (current != null && !current.isEmpty()) {
			waiting.park(current);
		}
		else if (current != null && own == null) {
			// an empty chunk takes any slot
			return current;
		}
		else if (current != null) {
			recycle(current);
		}
		this.open = null;
		if (waiting.isOverLimit()) {
			Chunk oldest = waiting.takeOldest();
			if (oldest != null) {
				sendChunk(oldest);
			}
		}
		if (own == null) {
			own = (this.open != null && this.open.isEmpty()) ? this.open : newChunk();
		}
		this.open = own;
		return own;
	}

	/**
	 * Take the chunk being recorded away (to send it, or because it will not be sent),
	 * and open a new one.
	 */
	Chunk takeOpen() {
		Chunk taken = open();
		this.open = null;
		return taken;
	}

	/**
	 * Take every chunk being recorded away (the batch or the lane stopped): the open one,
	 * and the parked ones of an exactly-once batch on a cluster.
	 */
	List<Chunk> takeAllOpen() {
		List<Chunk> taken = new ArrayList<>(1);
		taken.add(takeOpen());
		SlotChunks waiting = this.parked;
		if (waiting != null) {
			taken.addAll(waiting.takeAll());
		}
		return taken;
	}

	boolean hasWork() {
		return (this.open != null && !this.open.isEmpty()) || !this.inFlight.isEmpty()
				|| (this.parked != null && !this.parked.isEmpty());
	}

	/**
	 * Why the lane sends nothing more, or {@code null}.
	 */
	@Nullable String stopReason() {
		return this.stopReason;
	}

	/**
	 * Stop sending to this server.
	 * @return whether it was not stopped before
	 */
	boolean stop(String reason) {
		if (this.stopReason != null) {
			return false;
		}
		this.stopReason = reason;
		return true;
	}

	/**
	 * Whether the commands that could not be sent to this server go where the topology,
	 * read again, sends their slots (its master may have been replaced).
	 */
	boolean reroutesOnStop() {
		return this.rerouteOnStop;
	}

	void rerouteOnStop() {
		this.rerouteOnStop = true;
	}

	// ------------------------------------------------------------------ sending

	/**
	 * Send the chunk being recorded, if it holds anything.
	 */
	void sendOpen() {
		if (this.open == null || this.open.isEmpty()) {
			return;
		}
		sendChunk(takeOpen());
	}

	/**
	 * Send every chunk being recorded: the open one, and the parked ones.
	 */
	void sendAllOpen() {
		sendOpen();
		SlotChunks waiting = this.parked;
		Chunk oldest;
		while (waiting != null && (oldest = waiting.takeOldest()) != null) {
			sendChunk(oldest);
		}
	}

	private void sendChunk(Chunk full) {
		this.buffers.sent(full.bytes());
		this.chunkBytes = Math.min(this.chunkBytes * 2, this.settings.maxChunkBytes());
		send(full);
	}

	private void send(Chunk chunk) {
		boolean admitted = false;
		// a chunk refused whole goes again on a new connection: once, or as often as an
		// exactly-once batch sends a lost chunk again
		int refusalsLeft = chunk.isExactlyOnce() ? ExactlyOnce.attempts(this.settings) : 1;
		while (true) {
			String notSent = this.events.notSentReason(this);
			if (notSent != null) {
				this.events.unsendable(this, chunk, notSent);
				return;
			}
			if (!admitted) {
				// the batch's rate cap, before the window and the write: its waiting is
				// never part of a chunk's deadline
				admitted = this.events.admit(this, chunk);
				continue;
			}
			Lease current = lease(chunk);
			if (current == null) {
				continue;
			}
			if (!current.isOpenForWrite()) {
				// It broke (for example the server restarted): nothing of this chunk was
				// sent on it, so another connection can take the chunk.
				breakLease(current);
				continue;
			}
			if (chunk instanceof ScriptChunk script) {
				frame(script);
			}
			if (chunk.write(current, this.settings.timeoutNanos())) {
				this.inFlight.add(chunk);
				this.inFlightBytes += chunk.bytes();
				this.inFlightCommands += chunk.size();
				this.events.sent(this, chunk);
				return;
			}
			// The connection closed between the check and the write, and refused the
			// whole write: nothing went out. A connection that closed just before it was
			// lent (its close not yet known to Lettuce) is replaced once, as one found
			// closed by the check is; a second refusal leaves the chunk unsent. An
			// exactly-once batch tries as often as it sends a lost chunk again, waiting
			// its
			// backoff from the second time on: a server that closed every connection
			// leaves more than one dead in the pool until Lettuce has seen them close.
			breakLease(current);
			boolean again = refusalsLeft-- > 0;
			if (again && chunk.isExactlyOnce() && refusalsLeft < ExactlyOnce.attempts(this.settings) - 1) {
				again = Backoff.pause(ExactlyOnce.backoff(this.settings).toNanos());
			}
			if (again) {
				continue;
			}
			chunk.settleNotSent(Messages.closedBeforeWrite(), this.ledger);
			recycle(chunk);
			return;
		}
	}

	/**
	 * The connection for the next chunk, once it fits in the window (waiting for the
	 * oldest chunk otherwise). When the connection broke, the chunks still in flight on
	 * it settle before another is borrowed. Returns {@code null} when the lane was
	 * stopped while waiting.
	 */
	private @Nullable Lease lease(Chunk next) {
		while (this.events.notSentReason(this) == null) {
			if (!fitsInWindow(next)) {
				settleOldest();
				continue;
			}
			Lease current = this.lease;
			if (current != null && !current.isBroken()) {
				return current;
			}
			if (!this.inFlight.isEmpty()) {
				settleOldest();
				continue;
			}
			return borrow();
		}
		return null;
	}

	/**
	 * Whether the chunk can go now: nothing is in flight, or it fits in the window.
	 */
	private boolean fitsInWindow(Chunk next) {
		return this.inFlight.isEmpty() || (this.inFlightBytes + next.bytes() <= this.settings.maxInFlightBytes()
				&& this.inFlightCommands + next.size() <= this.settings.maxInFlightCommands());
	}

	private @Nullable Lease borrow() {
		NodePool node = node();
		BatchConnection connection;
		try {
			connection = node.borrow();
		}
		catch (RuntimeException ex) {
			this.events.borrowFailed(this, ex);
			return null;
		}
		try {
			Lease borrowed = connection.lease();
			this.events.leased(this, borrowed);
			// the lane holds it only once nothing can fail: a connection the catch below
			// gives back is never given back again when the lane releases its lease
			this.lease = borrowed;
			return borrowed;
		}
		catch (RuntimeException | Error ex) {
			// borrowed, but not leased: it goes back closed, never lost to the pool
			node.invalidate(connection);
			if (ex instanceof RuntimeException failure) {
				this.events.borrowFailed(this, failure);
				return null;
			}
			throw ex;
		}
	}

	/**
	 * Wait for the oldest chunk in flight and settle it.
	 */
	void settleOldest() {
		Chunk chunk = this.inFlight.poll();
		if (chunk == null) {
			return;
		}
		this.inFlightBytes -= chunk.bytes();
		this.inFlightCommands -= chunk.size();
		Lease on = chunk.lease();
		boolean alreadyLost = on.isBroken();
		ChunkSettlement settlement = chunk.awaitAndSettle(this.settings.timeout(), this.ledger, node().host());
		boolean unresolved = chunk.isUnresolved();
		if (settlement.leftConnectionClean() && on.isOpen()) {
			recycle(chunk);
		}
		else {
			// Unanswered commands may still be on the wire (or the server turned into a
			// replica): the connection never serves another chunk, and the chunk's buffer
			// is never reused.
			breakLease(on);
		}
		if (on.isBroken() && this.inFlight.isEmpty()) {
			// the last chunk on a broken connection: what was read for it is released
			on.end();
		}
		if (unresolved && chunk instanceof ScriptChunk script) {
			// exactly-once: the chunk goes again, with its marker, on new connections
			settlement = UnansweredChunks.resend(script, node(), this.settings, this.ledger);
			alreadyLost = false;
		}
		else if (chunk.isExactlyOnce() && chunk.writes() == 1 && settlement.answered()
				&& !ExactlyOnce.isNamed(this.settings) && chunk.marker() != null) {
			// answered on its first write: it cannot arrive a second time
			this.acknowledged.add(chunk.marker());
		}
		this.events.settled(this, settlement, alreadyLost);
	}

	// ------------------------------------------------------------------ exactly once

	/**
	 * Frame an exactly-once chunk as its script, once: its script also removes the
	 * markers of chunks answered since the last one was framed
	 * ({@link AcknowledgedMarkers}).
	 */
	private void frame(ScriptChunk chunk) {
		if (chunk.marker() != null) {
			// framed already: a chunk sent again keeps its bytes
			return;
		}
		chunk.frame(this.settings, this.framed++, this.acknowledged.takeFor(chunk.slot()));
	}

	/**
	 * Send commands again, before anything recorded after them: in chunks of their own,
	 * ahead of the chunk being recorded. Each must have been recorded with a recipe.
	 */
	void resendFirst(List<CommandResponse<?>> responses) {
		Chunk later = this.open;
		this.open = null;
		for (CommandResponse<?> response : responses) {
			String notSent = notSentReason();
			if (notSent != null) {
				response.settle(Outcome.NOT_SENT, notSent, this.ledger);
				continue;
			}
			CommandResponse.Recipe recipe = response.recipe();
			Chunk chunk = open();
			if (this.parked != null && !chunk.isEmpty() && chunk.slot() != recipe.slot()) {
				send(takeOpen());
				chunk = open();
			}
			ByteBuf buffer = chunk.buffer();
			int start = buffer.writerIndex();
			buffer.writeBytes(recipe.bytes());
			response.resend(recipe.output().get());
			chunk.add(response, start, buffer.writerIndex(), recipe.slot(), false);
			if (chunk.isFull(this.settings.maxChunkBytes())) {
				send(takeOpen());
			}
		}
		sendOpen();
		if (this.open != null) {
			recycle(this.open);
		}
		this.open = later;
	}

	/**
	 * Wait for every chunk in flight.
	 */
	void settleAll() {
		while (!this.inFlight.isEmpty()) {
			settleOldest();
		}
	}

	/**
	 * Close a connection that broke or may still receive replies: it leaves the pool at
	 * once. The lease ends once no chunk waits on it: the chunks still in flight decode
	 * what arrived before the close.
	 */
	private void breakLease(Lease broken) {
		if (broken.markBroken()) {
			node().invalidate(broken.connection());
		}
		if (this.inFlight.isEmpty()) {
			broken.end();
		}
	}

	/**
	 * Give the connection back to the pool, unless it broke.
	 */
	void releaseLease() {
		// the buffers go to the server's pool, for the next batches
		if (this.open != null && this.open.isEmpty()) {
			recycle(this.open);
			this.open = null;
		}
		NodePool server = this.node;
		if (server != null) {
			this.buffers.giveBack(server);
		}
		Lease current = this.lease;
		this.lease = null;
		if (current == null) {
			return;
		}
		if (current.isBroken()) {
			// closed already; what it read is released
			current.end();
			return;
		}
		boolean fit = false;
		try {
			fit = current.end();
			if (fit) {
				this.acknowledged.unlinkAll(current);
			}
		}
		finally {
			if (fit) {
				node().release(current.connection());
			}
			else {
				// a reply came that no chunk asked for (or ending the lease failed): the
				// connection is not reused
				current.markBroken();
				node().invalidate(current.connection());
			}
		}
	}

	// ------------------------------------------------------------------ buffers

	private Chunk newChunk() {
		ByteBuf buffer = this.buffers.take(this.node);
		if (this.settings.transactional()) {
			buffer.writeBytes(WireCommand.MULTI);
		}
		if (!this.settings.exactlyOnce()) {
			return new Chunk(buffer, this.settings.chunkSize(), this.settings.transactional(), this.cluster);
		}
		ScriptChunk chunk = new ScriptChunk(buffer, this.settings.chunkSize(), this.cluster);
		if (this.sentinel) {
			chunk.resendWhenRefused(ExactlyOnce.RESENT_ON_SENTINEL);
		}
		else if (this.cluster) {
			chunk.resendWhenRefused(ExactlyOnce.RESENT_ON_CLUSTER);
		}
		return chunk;
	}

	/**
	 * Keep a settled or unsent chunk's buffer for a later chunk.
	 */
	void recycle(Chunk chunk) {
		this.buffers.recycle(chunk.buffer());
	}

	/**
	 * What the batch decides when its lanes send.
	 */
	interface Events {

		/**
		 * Why nothing more is sent to this lane (the batch or the lane stopped), or
		 * {@code null} when it can send.
		 */
		@Nullable String notSentReason(Lane lane);

		/**
		 * Wait until the batch's rate cap allows the chunk to be written.
		 * @return {@code false} when the wait was interrupted: the batch stops, and the
		 * chunk is not sent
		 */
		boolean admit(Lane lane, Chunk chunk);

		/**
		 * A chunk that will not be sent: settle its commands, or send them elsewhere.
		 */
		void unsendable(Lane lane, Chunk chunk, String reason);

		/**
		 * A chunk was written.
		 */
		void sent(Lane lane, Chunk chunk);

		/**
		 * A chunk in flight was settled.
		 * @param connectionAlreadyLost whether its connection was known to be lost before
		 * (an earlier chunk on it went unanswered), so that this chunk's loss is not a
		 * new one
		 */
		void settled(Lane lane, ChunkSettlement settlement, boolean connectionAlreadyLost);

		/**
		 * No connection could be borrowed for this lane.
		 */
		void borrowFailed(Lane lane, RuntimeException failure);

		/**
		 * The lane leased a connection.
		 */
		void leased(Lane lane, Lease lease);

	}

}
