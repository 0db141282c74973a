package io.github.ratelimit.web.servlet;

import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.connector.Response;
import org.apache.tomcat.util.http.MimeHeaders;
import org.jspecify.annotations.Nullable;

/**
 * Sets headers on Tomcat's own response as bytes. Through the servlet API Tomcat keeps a
 * header as a string and encodes it when the response is written, building a new charset
 * encoder (and, in its constructor, a decoder) for every header name and value: for the
 * six headers of a limited response that costs more than the decision that produced them.
 * A name and value of visible ASCII are the same bytes in any charset Tomcat could use,
 * so they are handed over encoded; anything else (a control character, a non-ASCII
 * character) goes through {@link Response#setHeader}, which cleans it as it always does.
 */
final class TomcatHeaders implements ResponseHeaders.Direct {

	private final Response response;

	TomcatHeaders(Response response) {
		this.response = response;
	}

	@Override
	public boolean writes(HttpServletResponse response) {
		return response == this.response.getResponse();
	}

	@Override
	public void accept(String name, String value) {
		byte[] nameBytes = (name.isEmpty() || isSpecial(name)) ? null : visibleAscii(name);
		byte[] valueBytes = (nameBytes != null) ? visibleAscii(value) : null;
		if (nameBytes == null || valueBytes == null) {
			this.response.setHeader(name, value);
			return;
		}
		// as Response.setHeader: nothing changes once committed (an include is given a
		// wrapper, never this response)
		if (this.response.isCommitted()) {
			return;
		}
		MimeHeaders headers = this.response.getCoyoteResponse().getMimeHeaders();
		headers.removeHeader(name);
		headers.addValue(nameBytes, 0, nameBytes.length).setBytes(valueBytes, 0, valueBytes.length);
	}

	/**
	 * A name Tomcat may keep in a field of its own rather than among the headers
	 * ({@code Content-Type}, {@code Content-Length}): like Tomcat's own check, every name
	 * starting with a C takes the servlet API.
	 */
	private static boolean isSpecial(String name) {
		char first = name.charAt(0);
		return first == 'C' || first == 'c';
	}

	/**
	 * The string's bytes when every character is visible ASCII, a space or a tab; a new
	 * array each time, never shared between responses: Tomcat keeps it until the response
	 * is recycled, and a recycled buffer of its own may be written into when it is
	 * reused.
	 */
	private static byte @Nullable [] visibleAscii(String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if ((c < 0x20 && c != '\t') || c > 0x7e) {
				return null;
			}
		}
		return value.getBytes(StandardCharsets.ISO_8859_1);
	}

}
