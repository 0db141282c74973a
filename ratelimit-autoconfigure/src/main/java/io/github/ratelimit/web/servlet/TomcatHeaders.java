package io.github.ratelimit.web.servlet;

import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.connector.Response;
import org.apache.tomcat.util.buf.ByteChunk;
import org.apache.tomcat.util.buf.MessageBytes;
import org.apache.tomcat.util.http.MimeHeaders;

/**
 * Sets headers on Tomcat's own response as bytes. Through the servlet API Tomcat keeps a
 * header as a string and encodes it when the response is written, building a new charset
 * encoder (and, in its constructor, a decoder) for every header name and value: for the
 * six headers of a limited response that costs more than the decision that produced them.
 * A name and value of visible ASCII are the same bytes in any charset Tomcat could use,
 * so they are copied into the header's own buffers as bytes; anything else (a control
 * character, a non-ASCII character) goes through {@link Response#setHeader}, which cleans
 * it as it always does.
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
		if (name.isEmpty() || isSpecial(name)) {
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
		MessageBytes valueBytes = headers.addValue(name);
		// checked as copied: one pass over each name and value
		if (!copy(name, headers.getName(headers.size() - 1)) || !copy(value, valueBytes)) {
			headers.removeHeader(name);
			this.response.setHeader(name, value);
		}
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
	 * Puts the bytes of a string of visible ASCII, spaces and tabs into the header's own
	 * buffer, the one Tomcat keeps with the header from response to response and writes a
	 * {@code Content-Length} into ({@link MessageBytes#setLong}): no array per header,
	 * and none handed over that another response could write into.
	 * @return {@code false}, with the header left half written, at a control or non-ASCII
	 * character: the caller hands the header to the servlet API, which cleans it
	 */
	private static boolean copy(String text, MessageBytes target) {
		int length = text.length();
		ByteChunk chunk = target.getByteChunk();
		chunk.allocate(length, -1);
		byte[] buffer = chunk.getBuffer();
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if ((c < 0x20 && c != '\t') || c > 0x7e) {
				return false;
			}
			buffer[i] = (byte) c;
		}
		target.setBytes(buffer, 0, length);
		return true;
	}

}
