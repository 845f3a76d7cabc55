package dev.redisbatch.springbatch;

import org.jspecify.annotations.Nullable;

import org.springframework.batch.item.support.AbstractItemCountingItemStreamItemReader;

/**
 * A restartable reader of the ids 0 to count - 1, in order: what a file or an ordered
 * query gives a job.
 */
final class IdReader extends AbstractItemCountingItemStreamItemReader<Integer> {

	private final int count;

	private int next;

	IdReader(int count) {
		this.count = count;
		setName("ids");
	}

	@Override
	protected @Nullable Integer doRead() {
		return (this.next < this.count) ? this.next++ : null;
	}

	@Override
	protected void doOpen() {
		this.next = 0;
	}

	@Override
	protected void doClose() {
	}

	@Override
	protected void jumpToItem(int itemIndex) {
		this.next = itemIndex;
	}

}
