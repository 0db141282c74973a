package io.github.ratelimit.web.servlet;

import java.io.OutputStream;
import java.io.PrintWriter;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * A response that takes headers only: the application's CORS handling runs over a refusal
 * through it, and its own answer to an origin it rejects (a 403 with "Invalid CORS
 * request") must not replace the refusal.
 */
final class HeadersOnlyResponse extends HttpServletResponseWrapper {

	private static final ServletOutputStream DISCARD = new ServletOutputStream() {

		@Override
		public boolean isReady() {
			return true;
		}

		@Override
		public void setWriteListener(WriteListener listener) {
		}

		@Override
		public void write(int b) {
		}

	};

	HeadersOnlyResponse(HttpServletResponse response) {
		super(response);
	}

	@Override
	public void setStatus(int status) {
	}

	@Override
	public void sendError(int status) {
	}

	@Override
	public void sendError(int status, String message) {
	}

	@Override
	public ServletOutputStream getOutputStream() {
		return DISCARD;
	}

	@Override
	public PrintWriter getWriter() {
		return new PrintWriter(OutputStream.nullOutputStream());
	}

	@Override
	public void flushBuffer() {
	}

}
