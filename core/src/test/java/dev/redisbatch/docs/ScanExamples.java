package dev.redisbatch.docs;

import java.util.List;
import java.util.function.Consumer;

import dev.redisbatch.KeyScanner;
import dev.redisbatch.ScanCursor;
import dev.redisbatch.StringBatchTemplate;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.ScanOptions;

/**
 * The example of docs/api-guide.md: scanning the keys of every master, resumable from a
 * saved token.
 */
public class ScanExamples {

	private final StringBatchTemplate batchTemplate;

	public ScanExamples(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	/**
	 * Hand every {@code order:*} key to a consumer, a page at a time.
	 * @param savedToken where an earlier scan stopped, or {@code null}
	 * @param pages receives each page of keys
	 * @return the token to resume from (complete once every master was scanned)
	 */
	public String scanOrders(@Nullable String savedToken, Consumer<List<String>> pages) {
		ScanCursor from = (savedToken != null) ? ScanCursor.fromToken(savedToken) : null;
		KeyScanner<String> scanner = this.batchTemplate
			.scanKeys(ScanOptions.scanOptions().match("order:*").count(1000).build(), from);
		while (scanner.hasNext()) {
			// one SCAN call on one master; a key may come twice
			pages.accept(scanner.next());
		}
		// also valid after a failed next(): resume from it
		return scanner.cursor().toToken();
	}

}
