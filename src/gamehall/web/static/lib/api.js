// REST calls (docs/web-protocol.md). Errors come back as {"error": {code, message}}.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError("network", `The server cannot be reached (${error.message}).`, 0);
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) {
    const problem = data && typeof data === "object" ? data.error || data.detail : null;
    const message =
      problem && typeof problem === "object"
        ? problem.message
        : typeof problem === "string"
          ? problem
          : `${response.status} ${response.statusText}`;
    throw new ApiError((problem && problem.code) || `http_${response.status}`, message, response.status);
  }
  return data;
}

export const getJSON = (path) => api("GET", path);
export const postJSON = (path, body) => api("POST", path, body ?? {});

let metaPromise = null;
/** GET /api/meta, fetched once per page load. */
export function meta() {
  if (!metaPromise) metaPromise = getJSON("/api/meta").catch((e) => ((metaPromise = null), Promise.reject(e)));
  return metaPromise;
}

/** An absolute URL for a path or URL the server gave. */
export function absolute(url) {
  return new URL(url, location.origin).href;
}
