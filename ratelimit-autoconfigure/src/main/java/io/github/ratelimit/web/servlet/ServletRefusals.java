package io.github.ratelimit.web.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.util.ClassUtils;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.http.RateLimitStatus;
import io.github.ratelimit.http.RejectionBodyWriter;

/**
 * Writes the status and body of a refusal, for the gate before authentication and the
 * filter after it alike (their headers are written by each).
 */
final class ServletRefusals {

	private static final Logger logger = LoggerFactory.getLogger(ServletRefusals.class);

	private static final boolean TOMCAT = ClassUtils.isPresent("org.apache.catalina.valves.ValveBase",
			ServletRefusals.class.getClassLoader());

	private ServletRefusals() {
	}

	static void write(HttpServletRequest request, HttpServletResponse response, Decision.Refusal refusal,
			String requestId, RejectionBodyWriter bodyWriter, ServletCors cors) throws IOException {
		cors.applyToRefusal(request, response);
		response.setStatus(RateLimitStatus.of(refusal).code());
		if (request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
			// the body was never read: close rather than let the container read (swallow)
			// the rest of it
			// on a worker thread, which a client trickling its body would hold for as
			// long as it likes
			response.setHeader(HttpHeaders.CONNECTION, "close");
			if (TOMCAT) {
				RefusedBodyValve.closeWithoutReadingBody(request);
			}
		}
		byte[] body;
		try {
			body = bodyWriter.write(refusal, requestId);
			response.setContentType(bodyWriter.contentType());
		}
		catch (RuntimeException ex) {
			// the request is refused all the same: a broken body must neither let it
			// through nor turn into a 500
			logger.error("Rate-limit rejection body writer failed; answering without a body", ex);
			body = new byte[0];
		}
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

}
