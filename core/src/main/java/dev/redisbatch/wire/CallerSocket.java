package dev.redisbatch.wire;

import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.jspecify.annotations.Nullable;

/**
 * The socket of a plaintext batch connection, written and read by the batch's own thread
 * while it leases the connection, as a blocking client does: one wakeup per round trip
 * instead of three (the event loop woken to write, woken to read, then waking the batch's
 * thread). Lettuce still opened the connection and owns it; while the batch's thread uses
 * the socket, the event loop does not read it ({@link Wire} switches its auto-read off),
 * and Netty never writes on it (what Lettuce writes during a lease is held until the
 * lease ends).
 * <p>
 * The socket stays non-blocking, registered with the event loop's selector (with no
 * interest) and with a selector of its own, on which the batch's thread waits for
 * replies, or for room to write while it reads the replies that fill the server's side.
 * Virtual threads never wait here: a selector would hold their carrier.
 */
final class CallerSocket {

	/**
	 * The bytes one read asks for.
	 */
	private static final int READ_BYTES = 64 * 1024;

	/**
	 * The room kept in front of the bytes read: where the decoder puts the part of a
	 * reply that came with the read before, so that it copies that part, not the whole
	 * read (see {@link #headroom(ByteBuf)}).
	 */
	private static final int HEADROOM = 4 * 1024;

	/**
	 * The most reads of one call: what one call holds is bounded.
	 */
	private static final int MAX_READS = 16;

	/**
	 * The largest slice of a heap buffer written at once.
	 */
	private static final int WRITE_BYTES = 256 * 1024;

	private static final @Nullable MethodHandle IS_VIRTUAL = isVirtualHandle();

	private static final Consumer<SelectionKey> IGNORE_READY = (ready) -> {
	};

	private final SocketChannel channel;

	private final ByteBufAllocator allocator;

	private @Nullable Selector selector;

	private @Nullable SelectionKey key;

	private boolean closed;

	/**
	 * The two buffers reads go into, each reused once the decoder has let go of it: while
	 * it holds the part of a reply that one of them ended with, the next read goes into
	 * the other. A new one is taken only when both are held.
	 */
	private final @Nullable ByteBuf[] readBuffers = new ByteBuf[2];

	/**
	 * The socket reads into each of {@link #readBuffers} through this view of its memory,
	 * taken once.
	 */
	private final @Nullable ByteBuffer[] readViews = new ByteBuffer[2];

	/**
	 * The buffer heap bytes go out through: the JDK's own, so that no release can race
	 * the thread writing from it when the connection closes.
	 */
	private final ByteBuffer writeBuffer = ByteBuffer.allocateDirect(WRITE_BYTES);

	CallerSocket(SocketChannel channel, ByteBufAllocator allocator) {
		this.channel = channel;
		this.allocator = allocator;
	}

	/**
	 * Whether the calling thread may wait on a socket: a platform thread. A virtual
	 * thread would hold its carrier in {@code epoll_wait}.
	 */
	static boolean callerMayWait() {
		if (IS_VIRTUAL == null) {
			return true;
		}
		try {
			return !(boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
		}
		catch (Throwable ex) {
			return false;
		}
	}

	private static @Nullable MethodHandle isVirtualHandle() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (ReflectiveOperationException ex) {
			// before Java 21: every thread is a platform thread
			return null;
		}
	}

	/**
	 * Read what has arrived, without waiting.
	 * @param into takes each buffer read (and releases it)
	 * @throws EOFException when the server closed the connection
	 * @throws IOException when the socket failed
	 */
	synchronized void readArrived(Consumer<ByteBuf> into) throws IOException {
		// synchronized with close(), which releases the buffer a read may be filling
		for (int i = 0; i < MAX_READS; i++) {
			int slot = readSlot();
			ByteBuffer view = this.readViews[slot];
			view.clear().position(HEADROOM);
			int read = this.channel.read(view);
			if (read <= 0) {
				if (read < 0) {
					throw new EOFException("The server closed the connection");
				}
				return;
			}
			ByteBuf buffer = this.readBuffers[slot];
			into.accept(buffer.setIndex(HEADROOM, HEADROOM + read).retain());
			if (read < READ_BYTES) {
				// less than asked for: nothing more has arrived
				return;
			}
		}
	}

	/**
	 * Whether nothing has arrived on the socket of a connection between leases, and the
	 * server has not closed it: the socket's own selector is asked, without waiting,
	 * whether it could be read (bytes, or the server's close). That costs half of a read
	 * that finds nothing, and consumes nothing. Whatever it finds makes the connection
	 * unusable, so it is not kept.
	 */
	synchronized boolean isQuiet() {
		if (this.closed) {
			return false;
		}
		try {
			// (a wait for room to write may have left its interest in writing)
			return selector(SelectionKey.OP_READ).selectNow(IGNORE_READY) == 0;
		}
		catch (IOException | RuntimeException ex) {
			// closed meanwhile
			return false;
		}
	}

	/**
	 * The slot of the buffer to read into next, with {@link #HEADROOM} in front: a kept
	 * one that nobody else holds, or a new one in place of one the decoder still holds.
	 * Its bytes are read through its view, which covers the whole buffer.
	 */
	private int readSlot() throws EOFException {
		if (this.closed) {
			throw new EOFException("The connection is closed");
		}
		int slot = 0;
		for (int i = 0; i < this.readBuffers.length; i++) {
			ByteBuf kept = this.readBuffers[i];
			if (kept == null) {
				slot = i;
			}
			else if (kept.refCnt() == 1) {
				return i;
			}
		}
		ByteBuf held = this.readBuffers[slot];
		if (held != null) {
			// the decoder releases it when it is done with it
			held.release();
		}
		ByteBuf fresh = this.allocator.ioBuffer(HEADROOM + READ_BYTES, HEADROOM + READ_BYTES);
		this.readBuffers[slot] = fresh;
		this.readViews[slot] = fresh.nioBuffer(0, fresh.capacity());
		return slot;
	}

	/**
	 * The room in front of the bytes of a buffer this socket read into, where the part of
	 * a reply that came before them may be put; {@code 0} for any other buffer (the event
	 * loop's, whose bytes before the reader index may belong to someone else).
	 * @param bytes a buffer of read bytes
	 * @return the bytes that may be written just before its reader index
	 */
	int headroom(ByteBuf bytes) {
		// read without the lock: a buffer released by close() meanwhile only loses the
		// room, and is never written to again
		ByteBuf[] kept = this.readBuffers;
		return (bytes == kept[0] || bytes == kept[1]) ? bytes.readerIndex() : 0;
	}

	/**
	 * Wait until bytes arrive, the deadline passes or the thread is interrupted (its flag
	 * stays set), then read them.
	 * @param deadline a {@link System#nanoTime()} value
	 * @param into takes each buffer read
	 */
	void awaitAndRead(long deadline, Consumer<ByteBuf> into) throws IOException {
		select(SelectionKey.OP_READ, deadline);
		readArrived(into);
	}

	/**
	 * Write every byte of the buffer. When the socket is full, wait for room until the
	 * deadline, reading the replies that arrive meanwhile (the server stops reading while
	 * its replies wait).
	 * @param bytes the bytes, written from its reader index, which counts what went out
	 * @param deadline a {@link System#nanoTime()} value
	 * @param into takes each buffer read while waiting
	 * @return whether every byte was written before the deadline
	 */
	boolean write(ByteBuf bytes, long deadline, Consumer<ByteBuf> into) throws IOException {
		// A heap buffer (a chunk's) goes out through the connection's own direct buffer,
		// a slice at a time: the JDK would copy it into a temporary direct buffer per
		// write and keep that one, as large as the largest chunk, for the life of the
		// thread.
		ByteBuffer out = null;
		if (!bytes.isDirect()) {
			out = this.writeBuffer;
			out.clear().limit(0);
		}
		while (bytes.isReadable()) {
			int written;
			if (out == null) {
				written = bytes.readBytes(this.channel, bytes.readableBytes());
			}
			else {
				if (!out.hasRemaining()) {
					int slice = Math.min(out.capacity(), bytes.readableBytes());
					out.clear();
					if (bytes.hasArray()) {
						out.put(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), slice);
					}
					else {
						bytes.getBytes(bytes.readerIndex(), out.limit(slice));
					}
					out.flip();
				}
				written = this.channel.write(out);
				// the reader index counts what went out, not what was copied
				bytes.skipBytes(written);
			}
			if (written > 0) {
				continue;
			}
			if (deadline - System.nanoTime() <= 0 || Thread.currentThread().isInterrupted()) {
				return false;
			}
			select(SelectionKey.OP_READ | SelectionKey.OP_WRITE, deadline);
			readArrived(into);
		}
		return true;
	}

	private void select(int interest, long deadline) throws IOException {
		Selector waiting = selector(interest);
		long left = deadline - System.nanoTime();
		// the selector has one key, and the read that follows finds what is ready: its
		// selected-key set is never filled (and never cleared)
		if (left <= 0) {
			waiting.selectNow(IGNORE_READY);
		}
		else {
			// select(0) would wait forever: at least a millisecond
			waiting.select(IGNORE_READY, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left + 999_999)));
		}
	}

	/**
	 * The socket's own selector, its key interested in the given operations.
	 */
	private Selector selector(int interest) throws IOException {
		Selector waiting = selector();
		SelectionKey registered = this.key;
		if (registered != null && registered.interestOps() != interest) {
			registered.interestOps(interest);
		}
		return waiting;
	}

	private synchronized Selector selector() throws IOException {
		if (this.closed) {
			throw new EOFException("The connection is closed");
		}
		Selector current = this.selector;
		if (current == null) {
			current = Selector.open();
			try {
				this.key = this.channel.register(current, SelectionKey.OP_READ);
			}
			catch (IOException | RuntimeException ex) {
				current.close();
				throw ex;
			}
			this.selector = current;
		}
		return current;
	}

	/**
	 * Close the socket's own selector (the connection closed): a thread waiting on it
	 * returns.
	 */
	synchronized void close() {
		this.closed = true;
		for (int i = 0; i < this.readBuffers.length; i++) {
			ByteBuf kept = this.readBuffers[i];
			this.readBuffers[i] = null;
			this.readViews[i] = null;
			if (kept != null) {
				kept.release();
			}
		}
		Selector current = this.selector;
		this.selector = null;
		if (current != null) {
			try {
				current.close();
			}
			catch (IOException ex) {
				// nothing waits on it any more
			}
		}
	}

}
