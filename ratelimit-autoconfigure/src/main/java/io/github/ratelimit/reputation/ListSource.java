package io.github.ratelimit.reputation;

import java.io.IOException;
import java.io.Reader;

/** Where a reputation list is read from: a file or a URL. */
public interface ListSource {

	/** Where the list comes from, for log lines (never a credential). */
	String location();

	/**
	 * Opens the list's current text.
	 * @return a reader of the text, closed by the caller
	 * @throws IOException when the list cannot be read now
	 */
	Reader open() throws IOException;

}
