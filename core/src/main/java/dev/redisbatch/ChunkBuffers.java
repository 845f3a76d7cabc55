package dev.redisbatch;

import java.util.ArrayDeque;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.jspecify.annotations.Nullable;

/**
 * A lane's chunk buffers: the buffers of settled chunks kept for its next chunks (a batch
 * of one chunk needs no more), and the size a new one starts at, so that filling it does
 * not grow and copy it. What the lane keeps at its end goes to the server's pool, for the
 * next batches.
 */
final class ChunkBuffers {

	/**
	 * How many settled chunks' buffers a lane keeps.
	 */
	private static final int SPARE_BUFFERS = 4;

	private final RunSettings settings;

	/**
	 * The first capacity of a new buffer, or 0 to size it from the largest chunk sent.
	 */
	private final int firstCapacity;

	private @Nullable ByteBuf spare;

	/**
	 * More buffers of settled chunks, made when a lane keeps a second one.
	 */
	private @Nullable ArrayDeque<ByteBuf> more;

	/**
	 * The size of the largest chunk sent so far.
	 */
	private int largestChunkBytes;

	/**
	 * @param settings the batch's settings (its chunk size and byte budget)
	 * @param firstCapacity the capacity new buffers start at, or 0 to size them after the
	 * largest chunk sent
	 */
	ChunkBuffers(RunSettings settings, int firstCapacity) {
		this.settings = settings;
		this.firstCapacity = firstCapacity;
	}

	/**
	 * A buffer for a new chunk: a kept one, the server's, or a new one.
	 * @param server the server's pool, or {@code null}
	 */
	ByteBuf take(@Nullable NodePool server) {
		ByteBuf buffer = takeSpare();
		if (buffer == null && server != null) {
			buffer = server.takeBuffer();
		}
		if (buffer == null && this.firstCapacity > 0) {
			buffer = Unpooled.buffer(this.firstCapacity);
		}
		if (buffer == null) {
			int expected = (this.largestChunkBytes > 0) ? this.largestChunkBytes + this.largestChunkBytes / 8
					: Math.min(this.settings.chunkSize(), 1024) * 48;
			buffer = Unpooled.buffer((int) Math.min(expected, this.settings.maxChunkBytes() + 1024));
		}
		return buffer;
	}

	/**
	 * A chunk of this size is sent: new buffers start at its size once it is the largest.
	 */
	void sent(int chunkBytes) {
		this.largestChunkBytes = Math.max(this.largestChunkBytes, chunkBytes);
	}

	/**
	 * Keep a settled or unsent chunk's buffer for a later chunk.
	 */
	void recycle(ByteBuf buffer) {
		if (buffer.capacity() > 4 * this.settings.maxChunkBytes()) {
			return;
		}
		buffer.clear();
		if (this.spare == null) {
			this.spare = buffer;
			return;
		}
		ArrayDeque<ByteBuf> others = this.more;
		if (others == null) {
			others = new ArrayDeque<>(SPARE_BUFFERS - 1);
			this.more = others;
		}
		if (others.size() < SPARE_BUFFERS - 1) {
			others.push(buffer);
		}
	}

	/**
	 * Give the kept buffers to the server's pool, for the next batches.
	 */
	void giveBack(NodePool server) {
		ByteBuf buffer;
		while ((buffer = takeSpare()) != null) {
			server.keepBuffer(buffer);
		}
	}

	private @Nullable ByteBuf takeSpare() {
		ByteBuf kept = this.spare;
		if (kept != null) {
			this.spare = null;
			return kept;
		}
		ArrayDeque<ByteBuf> others = this.more;
		return (others != null) ? others.poll() : null;
	}

}
