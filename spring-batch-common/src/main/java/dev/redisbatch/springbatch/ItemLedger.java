package dev.redisbatch.springbatch;

import java.util.ArrayList;
import java.util.List;

import dev.redisbatch.Outcome;
import org.jspecify.annotations.Nullable;

/**
 * What is known about the commands of the items written since the last commit of the
 * step, oldest first: for each item, for each command its mapper recorded, a fingerprint
 * (to check that the same item comes back), whether it was recorded as idempotent, and
 * its outcome so far. The writer consults it to send again only what is safe to send.
 * <p>
 * Its string form (see {@link #encode()}) is kept in the step's {@code ExecutionContext}
 * so that a restarted step knows it too. It holds outcome letters and fingerprints only:
 * no key, no value.
 */
final class ItemLedger {

	private static final String VERSION = "l1:";

	private final List<Item> items = new ArrayList<>();

	int size() {
		return this.items.size();
	}

	boolean isEmpty() {
		return this.items.isEmpty();
	}

	Item get(int index) {
		return this.items.get(index);
	}

	void set(int index, Item item) {
		if (index < this.items.size()) {
			this.items.set(index, item);
		}
		else {
			this.items.add(item);
		}
	}

	/**
	 * Forget the oldest items (committed ones).
	 */
	void dropOldest(int count) {
		this.items.subList(0, Math.min(count, this.items.size())).clear();
	}

	void clear() {
		this.items.clear();
	}

	/**
	 * The string form: {@code l1:} then the items separated by {@code ,}, each the list
	 * of its commands separated by {@code .}, each an outcome letter ({@code S},
	 * {@code F}, {@code U}, {@code N}; lower case when idempotent) and the fingerprint in
	 * hexadecimal.
	 */
	String encode() {
		StringBuilder text = new StringBuilder(VERSION.length() + this.items.size() * 11).append(VERSION);
		for (int i = 0; i < this.items.size(); i++) {
			if (i > 0) {
				text.append(',');
			}
			List<Command> commands = this.items.get(i).commands();
			for (int j = 0; j < commands.size(); j++) {
				if (j > 0) {
					text.append('.');
				}
				Command command = commands.get(j);
				char letter = letter(command.outcome());
				text.append(command.idempotent() ? Character.toLowerCase(letter) : letter)
					.append(Integer.toHexString(command.fingerprint()));
			}
		}
		return text.toString();
	}

	/**
	 * Read a ledger that a step saved before it failed. A command that Redis refused did
	 * not run, so a restarted step may send it again: it is read as {@code NOT_SENT}.
	 * @throws IllegalArgumentException if the text is not what {@link #encode()} makes
	 */
	static ItemLedger decodeForRestart(String text) {
		if (!text.startsWith(VERSION)) {
			throw new IllegalArgumentException(
					"not a ledger of this version (it does not start with '" + VERSION + "')");
		}
		ItemLedger ledger = new ItemLedger();
		String body = text.substring(VERSION.length());
		if (body.isEmpty()) {
			return ledger;
		}
		for (String item : body.split(",", -1)) {
			List<Command> commands = new ArrayList<>();
			if (!item.isEmpty()) {
				for (String command : item.split("\\.", -1)) {
					if (command.length() < 2) {
						throw new IllegalArgumentException("'" + command + "' is not a command entry");
					}
					char letter = command.charAt(0);
					Outcome outcome = outcome(Character.toUpperCase(letter));
					int fingerprint;
					try {
						fingerprint = Integer.parseUnsignedInt(command.substring(1), 16);
					}
					catch (NumberFormatException ex) {
						throw new IllegalArgumentException("'" + command + "' has no fingerprint");
					}
					commands.add(new Command(fingerprint, Character.isLowerCase(letter),
							(outcome == Outcome.FAILED) ? Outcome.NOT_SENT : outcome));
				}
			}
			ledger.items.add(new Item(commands));
		}
		return ledger;
	}

	/**
	 * Whether a saved ledger holds commands that Redis refused ({@link #decodeForRestart}
	 * reads them as not sent).
	 * @param text what {@link #encode()} made
	 * @return whether a command's outcome is {@code FAILED}
	 */
	static boolean hasRefused(String text) {
		for (int i = VERSION.length(); i < text.length(); i++) {
			char letter = text.charAt(i);
			boolean start = i == VERSION.length() || text.charAt(i - 1) == ',' || text.charAt(i - 1) == '.';
			if (start && (letter == 'F' || letter == 'f')) {
				return true;
			}
		}
		return false;
	}

	private static char letter(Outcome outcome) {
		return switch (outcome) {
			case SUCCESS -> 'S';
			case FAILED -> 'F';
			case UNKNOWN -> 'U';
			case NOT_SENT -> 'N';
		};
	}

	private static Outcome outcome(char letter) {
		return switch (letter) {
			case 'S' -> Outcome.SUCCESS;
			case 'F' -> Outcome.FAILED;
			case 'U' -> Outcome.UNKNOWN;
			case 'N' -> Outcome.NOT_SENT;
			default -> throw new IllegalArgumentException("'" + letter + "' is not an outcome letter");
		};
	}

	/**
	 * One item: the commands its mapper recorded, in order.
	 */
	record Item(List<Command> commands, @Nullable String failure) {

		Item(List<Command> commands) {
			this(commands, null);
		}

		/**
		 * Whether the commands recorded now for the item at this position start with the
		 * ones recorded for it before (all of them, unless its mapper stopped half-way
		 * then).
		 */
		boolean sameCommandsAs(List<Integer> fingerprints) {
			if (fingerprints.size() < this.commands.size()) {
				return false;
			}
			for (int i = 0; i < this.commands.size(); i++) {
				if (fingerprints.get(i) != this.commands.get(i).fingerprint()) {
					return false;
				}
			}
			return true;
		}

		boolean allSucceeded() {
			return this.commands.stream().allMatch((command) -> command.outcome() == Outcome.SUCCESS);
		}

		boolean has(Outcome outcome) {
			return this.commands.stream().anyMatch((command) -> command.outcome() == outcome);
		}

		/**
		 * Whether a command whose outcome is unknown may not be sent again.
		 */
		Item withUnknownSettled(boolean applied) {
			List<Command> settled = new ArrayList<>();
			for (Command command : this.commands) {
				boolean unknown = command.outcome() == Outcome.UNKNOWN && !command.idempotent();
				settled.add(unknown ? command.withOutcome(applied ? Outcome.SUCCESS : Outcome.NOT_SENT) : command);
			}
			return new Item(settled, this.failure);
		}

		boolean hasUnknownNotIdempotent() {
			return this.commands.stream()
				.anyMatch((command) -> command.outcome() == Outcome.UNKNOWN && !command.idempotent());
		}

	}

	/**
	 * One command of an item.
	 */
	record Command(int fingerprint, boolean idempotent, Outcome outcome) {

		Command withOutcome(Outcome next) {
			return new Command(this.fingerprint, this.idempotent, next);
		}

	}

}
