package io.github.ratelimit.bench.floor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.tomcat.util.http.MimeHeaders;

/**
 * The headers the sample app sends on the benchmark's admitted path (its limits, one
 * address's policies, a request id), as fixed bytes put straight into Tomcat's response:
 * what sending them costs the server, the kernel and the client, with nothing decided and
 * nothing formatted. The limiter cannot send its headers for less.
 */
final class FloorHeadersValve extends ValveBase {

	// arrays shared by every response: Tomcat may encode a header of its own into the
	// buffer a recycled header field kept, so this holds only because these six are the
	// first headers of every response (their fields are never Tomcat's); the limiter
	// copies its bytes into the buffers Tomcat keeps with the fields
	private static final byte[][] HEADERS = {
			bytes("X-Request-Id"), bytes("2d6dd7ed21ec295f"),
			bytes("RateLimit-Policy"),
			bytes("\"anonymous-ip-default\";q=1000000000;w=60, \"backstop-ip-default\";q=1000000000;w=60"),
			bytes("RateLimit"), bytes("\"anonymous-ip-default\";r=999999999;t=0"),
			bytes("X-RateLimit-Limit"), bytes("1000000000"),
			bytes("X-RateLimit-Remaining"), bytes("999999999"),
			bytes("X-RateLimit-Reset"), bytes("0") };

	FloorHeadersValve() {
		super(true);
	}

	@Override
	public void invoke(Request request, Response response) throws IOException, ServletException {
		MimeHeaders headers = response.getCoyoteResponse().getMimeHeaders();
		for (int i = 0; i < HEADERS.length; i += 2) {
			headers.addValue(HEADERS[i], 0, HEADERS[i].length).setBytes(HEADERS[i + 1], 0, HEADERS[i + 1].length);
		}
		getNext().invoke(request, response);
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.ISO_8859_1);
	}

}
