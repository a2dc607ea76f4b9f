// The tenants' portal: a client of the public API with the portal session's token (docs/tenants-and-portal.md).
// Every value from the API reaches the page as text (textContent, text nodes, input values), never as markup.
(function () {
  'use strict';

  var account = document.body.getAttribute('data-account');
  var STORE_KEY = 'portal-token:' + account;
  var main = document.getElementById('main');
  var nav = document.getElementById('nav');
  var notice = document.getElementById('notice');
  var catalog = null;

  // The link's token is taken from the fragment once and the fragment removed at once, before any call: the address
  // (history, bookmarks, a shared screen) no longer carries it. It is kept for this tab only, in sessionStorage (an
  // HttpOnly cookie would not reach the public API's Bearer calls, and a third-party iframe's cookies are often blocked).
  function takeToken() {
    var fromLink = new URLSearchParams(location.hash.slice(1)).get('token');
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    try {
      if (fromLink) sessionStorage.setItem(STORE_KEY, fromLink);
      return fromLink || sessionStorage.getItem(STORE_KEY);
    } catch (e) {
      return fromLink; // storage refused (e.g. a blocked third-party frame): the token lives until the page is left
    }
  }
  var token = takeToken();

  function forgetToken() {
    token = null;
    try { sessionStorage.removeItem(STORE_KEY); } catch (e) { /* nothing stored */ }
  }

  /** An element with properties and children; strings become text nodes. */
  function h(tag, props) {
    var el = document.createElement(tag);
    var attrs = props || {};
    Object.keys(attrs).forEach(function (key) {
      var value = attrs[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'onclick' || key === 'onsubmit' || key === 'onchange') el.addEventListener(key.slice(2), value);
      else if (key === 'testid') el.setAttribute('data-testid', value);
      else if (key in el && key !== 'list') el[key] = value;
      else el.setAttribute(key, String(value));
    });
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }
  function append(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) return child.forEach(function (c) { append(el, c); });
    el.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  function show() {
    main.replaceChildren();
    for (var i = 0; i < arguments.length; i++) append(main, arguments[i]);
    var heading = main.querySelector('h1');
    if (heading) document.title = heading.textContent + ' · ' + brandName();
  }
  function say(text) { notice.textContent = text || ''; }
  function brandName() { return document.getElementById('brand-name').textContent; }
  function json(value) { return JSON.stringify(value, null, 2); }

  /**
   * JSON.parse, keeping each number as written where JSON.parse rounds it (an id beyond 2^53 in an event's data): the
   * API keeps such numbers as sent, and so do this page's views and test events, where the browser gives the source
   * text (JSON.rawJSON; elsewhere they are rounded, as before).
   */
  var keepDigits = typeof JSON.rawJSON === 'function'
    ? function (key, value, context) {
      return typeof value === 'number' && context && typeof context.source === 'string' && context.source !== String(value) ? JSON.rawJSON(context.source) : value;
    }
    : undefined;
  function parseJson(text) { return JSON.parse(text, keepDigits); }
  function when(iso) { return iso ? new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '—'; }

  function ApiError(status, body) {
    this.status = status;
    this.body = body || {};
    this.message = (body && body.error) || 'The request failed (HTTP ' + status + ').';
  }

  /** One call of the public API under /api/v1/webhooks, with the session's token; a 401 ends the session on this page. */
  function api(method, path, body) {
    var headers = { Authorization: 'Bearer ' + token };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch('/api/v1/webhooks' + path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? parseJson(text) : null; } catch (e) { data = null; }
        if (res.status === 401) {
          forgetToken();
          showExpired();
          throw new ApiError(401, data);
        }
        if (!res.ok) throw new ApiError(res.status, data);
        return data;
      });
    });
  }

  /** An error box for a refused call: the API's own words, and what `details` names. */
  function errorBox(err) {
    var details = (err.body && err.body.details) || [];
    return h('div', { className: 'error', role: 'alert' }, err.message, details.length ? h('ul', null, details.map(function (d) { return h('li', null, d.path + ': ' + d.message); })) : null);
  }
  /** Runs a call from a button: disabled while it runs, a refusal shown in `where` (or the page). */
  function act(button, where, call) {
    button.disabled = true;
    var old = where.querySelector(':scope > .error');
    if (old) old.remove();
    return call().catch(function (err) {
      if (err instanceof ApiError && err.status === 401) return;
      where.appendChild(errorBox(err instanceof ApiError ? err : new ApiError(0, { error: String(err && err.message) })));
    }).finally(function () { button.disabled = false; });
  }

  function showExpired() {
    nav.hidden = true;
    say('');
    show(
      h('h1', null, 'This link has expired'),
      h('p', { role: 'alert' }, 'The portal session is no longer valid (links work for a limited time). Open the webhooks portal again from ' + brandName() + ' to get a new one.'),
    );
  }

  // ---- Navigation --------------------------------------------------------------------------------------------

  var VIEWS = [
    { id: 'endpoints', label: 'Endpoints', open: function () { return showEndpoints(); } },
    { id: 'event-types', label: 'Event types', open: function () { return showEventTypes(); } },
    { id: 'events', label: 'Events', open: function () { return showEvents(); } },
  ];
  function buildNav() {
    nav.replaceChildren();
    VIEWS.forEach(function (view) {
      nav.appendChild(h('button', { type: 'button', 'data-view': view.id, onclick: function () { say(''); view.open(); } }, view.label));
    });
    nav.hidden = false;
  }
  function mark(viewId) {
    Array.prototype.forEach.call(nav.querySelectorAll('button'), function (b) {
      if (b.getAttribute('data-view') === viewId) b.setAttribute('aria-current', 'page');
      else b.removeAttribute('aria-current');
    });
  }
  function failed(err) {
    if (err instanceof ApiError && err.status === 401) return;
    show(h('h1', null, 'Something went wrong'), errorBox(err instanceof ApiError ? err : new ApiError(0, { error: String(err && err.message) })));
  }

  // ---- Event types (the account's catalog) -------------------------------------------------------------------

  /** Every event type of the catalog, by name (at most two pages of 100: the catalog holds at most 200). */
  function loadCatalog() {
    if (catalog) return Promise.resolve(catalog);
    var all = [];
    function page(cursor) {
      return api('GET', '/event-types?limit=100' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '')).then(function (res) {
        all = all.concat(res.data);
        return res.next_cursor ? page(res.next_cursor) : (catalog = all);
      });
    }
    return page(null);
  }

  function showEventTypes() {
    mark('event-types');
    return loadCatalog().then(function (types) {
      show(
        h('h1', null, 'Event types'),
        h('p', { className: 'hint' }, 'The events you can subscribe an endpoint to, with an example of each.'),
        types.length === 0 ? h('p', null, 'No event types are listed yet.') : null,
        types.map(function (type) {
          return h(
            'section',
            { testid: 'event-type' },
            h('h2', null, h('code', null, type.name)),
            h('p', null, type.description || ''),
            type.example !== undefined && type.example !== null ? [h('h3', { className: 'hint' }, 'Example data'), h('pre', { testid: 'event-type-example' }, json(type.example))] : null,
            type.schema ? h('details', null, h('summary', null, 'JSON Schema of its data'), h('pre', null, json(type.schema))) : null,
          );
        }),
      );
    }).catch(failed);
  }

  // ---- Endpoints ---------------------------------------------------------------------------------------------

  // The destination types and their fields, as the dashboard's endpoint form has them (page.ts puts them in the page).
  var DESTINATIONS = JSON.parse(document.body.getAttribute('data-destination-forms'));
  function formOf(type) { return DESTINATIONS.types.filter(function (t) { return t.type === type; })[0]; }
  function typeOf(endpoint) { return endpoint.destination ? endpoint.destination.type : 'https'; }
  /** A config value as read: a list joined, the empty string as "", no value as none. */
  function shown(value) { return Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? 'none' : value === '' ? '""' : String(value); }

  /** The URL, or the broker type and its address (the type's first config field: URI, bootstrap servers, queue URL). */
  function target(endpoint) {
    var d = endpoint.destination;
    return d ? DESTINATIONS.labels[d.type] + ' ' + shown(d.config[formOf(d.type).config[0].name]) : endpoint.url;
  }
  function statusOf(endpoint) {
    return (endpoint.disabled ? 'disabled' : 'enabled') + (endpoint.paused ? ' paused' : '');
  }

  function showEndpoints() {
    mark('endpoints');
    return api('GET', '/endpoints?limit=100').then(function (page) {
      show(
        h('h1', null, 'Endpoints'),
        h('div', { className: 'actions' }, h('button', { type: 'button', onclick: function () { showEndpointForm(null); } }, 'Add endpoint')),
        page.data.length === 0
          ? h('p', null, 'No endpoints yet: add one to receive webhooks.')
          : h(
              'table',
              null,
              h('thead', null, h('tr', null, h('th', null, 'Destination'), h('th', null, 'Event types'), h('th', null, 'Status'))),
              h('tbody', null, page.data.map(function (ep) {
                return h(
                  'tr',
                  null,
                  h('td', null, h('button', { type: 'button', className: 'link', onclick: function () { showEndpoint(ep.id); } }, target(ep))),
                  h('td', null, ep.events.join(', ')),
                  h('td', null, statusOf(ep)),
                );
              })),
            ),
      );
    }).catch(failed);
  }

  /**
   * The endpoint form's destination: the type, then that type's fields only (the others hidden and disabled, so neither
   * checked nor read). Credentials are password inputs that are never filled in: the API never answers them. `read()`
   * answers the body's `url` or `destination`; credential inputs left empty are not sent, so an edit of the same type
   * keeps the stored ones (the API's PATCH rule).
   */
  function destinationFields(endpoint) {
    var stored = endpoint ? endpoint.destination : null;
    var choices = ['https'].concat(DESTINATIONS.types.map(function (t) { return t.type; }));
    var chosen = endpoint ? typeOf(endpoint) : 'https';
    var select = h('select', { id: 'destination-type' }, choices.map(function (type) { return h('option', { value: type, selected: type === chosen }, DESTINATIONS.labels[type]); }));
    var url = h('input', { type: 'url', id: 'endpoint-url', required: true, value: endpoint ? endpoint.url || '' : '', placeholder: 'https://example.com/webhooks' });
    var sections = { https: h('fieldset', null, h('legend', null, 'HTTPS'), h('label', { htmlFor: 'endpoint-url' }, 'Endpoint URL'), url, h('p', { className: 'hint' }, 'Every delivery is a signed POST to this address.')) };
    var readers = {};

    DESTINATIONS.types.forEach(function (form) {
      var own = stored && stored.type === form.type ? stored : null;
      var config = form.config.map(function (field) { return configField(form.type, field, own ? own.config[field.name] : undefined); });
      var credentials = form.credentials.map(function (field) {
        var input = h('input', { type: 'password', id: 'dest-' + form.type + '-' + field.name, autocomplete: 'new-password' });
        return { name: field.name, input: input, elements: [h('label', { htmlFor: input.id }, field.label, field.optional ? h('span', { className: 'hint' }, ' (optional)') : null), input] };
      });
      var hint = own
        ? (own.credentials_set.length ? 'Set: ' + own.credentials_set.join(', ') + '.' : 'None set.') + ' Leave every credential empty to keep the stored ones; fill them in to replace them all. ' + form.credentialsHint
        : form.credentialsHint + ' Never shown again once saved.';
      sections[form.type] = h(
        'fieldset',
        null,
        h('legend', null, DESTINATIONS.labels[form.type]),
        config.map(function (c) { return c.elements; }),
        h('fieldset', null, h('legend', null, 'Credentials'), h('p', { className: 'hint', testid: 'credentials-hint' }, hint), credentials.map(function (c) { return c.elements; })),
      );
      readers[form.type] = function () {
        var destination = { type: form.type, config: {} };
        config.forEach(function (c) { destination.config[c.name] = c.read(); });
        var typed = credentials.filter(function (c) { return c.input.value !== ''; });
        if (typed.length) {
          destination.credentials = {};
          typed.forEach(function (c) { destination.credentials[c.name] = c.input.value; });
        }
        return { destination: destination };
      };
    });
    readers.https = function () { return { url: url.value.trim() }; };

    function showChosen() {
      Object.keys(sections).forEach(function (type) {
        sections[type].hidden = type !== select.value;
        sections[type].disabled = type !== select.value;
      });
    }
    select.addEventListener('change', showChosen);
    showChosen();
    return {
      elements: [
        h('label', { htmlFor: 'destination-type' }, 'Destination type'),
        select,
        h('p', { className: 'hint' }, 'HTTPS: every delivery is a signed POST to your URL. RabbitMQ, Kafka, SQS: every delivery is published to your broker, signed the same way in its headers.'),
        choices.map(function (type) { return sections[type]; }),
      ],
      read: function () { return readers[select.value](); },
    };
  }

  /** One config field of a broker type, filled with the stored value (a new form: empty, a checkbox on as the API's default is). */
  function configField(type, field, value) {
    var id = 'dest-' + type + '-' + field.name;
    var label = h('label', { htmlFor: id }, field.label, field.optional ? h('span', { className: 'hint' }, ' (optional)') : null);
    var hint = field.hint ? h('p', { className: 'hint' }, field.hint) : null;
    var input;
    var read;
    if (field.kind === 'checkbox') {
      input = h('input', { type: 'checkbox', id: id, checked: value === undefined ? true : value === true });
      return { name: field.name, elements: h('label', { className: 'choice' }, input, h('span', null, field.label)), read: function () { return input.checked; } };
    }
    if (field.kind === 'sasl') {
      input = h('select', { id: id }, [h('option', { value: '' }, 'None')].concat(DESTINATIONS.sasl_mechanisms.map(function (m) { return h('option', { value: m, selected: m === value }, m); })));
      read = function () { return input.value === '' ? null : input.value; };
    } else if (field.kind === 'lines') {
      input = h('textarea', { id: id, rows: 2, placeholder: field.placeholder, value: Array.isArray(value) ? value.join('\n') : '' });
      read = function () { return input.value.split(/[\n\r,]+/).map(function (entry) { return entry.trim(); }).filter(function (entry) { return entry !== ''; }); };
    } else {
      input = h('input', { type: 'text', id: id, placeholder: field.placeholder, value: value === undefined || value === null ? '' : String(value) });
      read = function () { return input.value.trim(); };
    }
    return { name: field.name, elements: [label, input, hint], read: read };
  }

  /** Add (endpoint null) or edit: the destination, the event types chosen from the catalog (patterns it already has stay offered), a description. */
  function showEndpointForm(endpoint) {
    mark('endpoints');
    return loadCatalog().then(function (types) {
      var chosen = endpoint ? endpoint.events : [];
      var names = types.map(function (t) { return t.name; });
      var extra = chosen.filter(function (p) { return p !== '*' && names.indexOf(p) < 0; });
      function choice(value, text, hint) {
        return h('label', { className: 'choice' }, h('input', { type: 'checkbox', name: 'events', value: value, checked: chosen.indexOf(value) >= 0 }), h('span', null, text, hint ? h('span', { className: 'hint' }, ' — ' + hint) : null));
      }
      var destination = destinationFields(endpoint);
      var description = h('input', { type: 'text', id: 'endpoint-description', value: endpoint ? endpoint.description : '' });
      var submit = h('button', { type: 'submit' }, endpoint ? 'Save endpoint' : 'Add endpoint');
      var form = h(
        'form',
        {
          onsubmit: function (e) {
            e.preventDefault();
            var events = Array.prototype.map.call(form.querySelectorAll('input[name="events"]:checked'), function (i) { return i.value; });
            var body = Object.assign({ events: events.length ? events : ['*'], description: description.value }, destination.read());
            act(submit, form, function () {
              return (endpoint ? api('PATCH', '/endpoints/' + endpoint.id, body) : api('POST', '/endpoints', body)).then(function (saved) {
                return showEndpoint(saved.id).then(function () { say(endpoint ? 'Endpoint saved.' : 'Endpoint added.'); });
              });
            });
          },
        },
        destination.elements,
        h('fieldset', null, h('legend', null, 'Event types'), h('p', { className: 'hint' }, 'None chosen: every event type.'), choice('*', 'Every event type (*)'), types.map(function (t) { return choice(t.name, t.name, t.description); }), extra.map(function (p) { return choice(p, p); })),
        h('label', { htmlFor: 'endpoint-description' }, 'Description'),
        description,
        h('div', { className: 'actions' }, submit, h('button', { type: 'button', className: 'secondary', onclick: function () { return endpoint ? showEndpoint(endpoint.id) : showEndpoints(); } }, 'Cancel')),
      );
      show(h('h1', null, endpoint ? 'Edit endpoint' : 'Add an endpoint'), form);
    }).catch(failed);
  }

  /** The endpoint's destination as rows: its type, then its URL, or a broker's config and which credentials are set (never their values). */
  function destinationRows(ep) {
    var d = ep.destination;
    var rows = [h('dt', null, 'Destination'), h('dd', { testid: 'endpoint-type' }, DESTINATIONS.labels[typeOf(ep)])];
    if (!d) return rows.concat([h('dt', null, 'URL'), h('dd', { testid: 'endpoint-url' }, ep.url)]);
    return rows.concat(
      formOf(d.type).config.map(function (field) { return [h('dt', null, field.label), h('dd', { testid: 'endpoint-config-' + field.name }, h('code', null, shown(d.config[field.name])))]; }),
      [h('dt', null, 'Credentials'), h('dd', { testid: 'endpoint-credentials' }, d.credentials_set.length ? d.credentials_set.join(', ') + ' set (values are never shown)' : 'none')],
    );
  }

  function showEndpoint(id) {
    mark('endpoints');
    return Promise.all([api('GET', '/endpoints/' + encodeURIComponent(id)), loadCatalog()]).then(function (loaded) {
      var ep = loaded[0];
      var types = loaded[1];
      var path = '/endpoints/' + encodeURIComponent(ep.id);
      var controls = h('div', { className: 'actions' });
      var pause = h('button', { type: 'button', className: 'secondary' }, ep.paused ? 'Resume deliveries' : 'Pause deliveries');
      pause.addEventListener('click', function () {
        act(pause, controls, function () {
          return api('POST', path + (ep.paused ? '/resume' : '/pause'), {}).then(function () {
            return showEndpoint(ep.id).then(function () {
              say(ep.paused ? 'Deliveries resumed: every waiting delivery is attempted now.' : 'Deliveries paused: events are still accepted and wait.');
            });
          });
        });
      });
      var remove = h('button', { type: 'button', className: 'danger' }, 'Delete endpoint');
      remove.addEventListener('click', function () {
        var confirm = h('button', { type: 'button', className: 'danger' }, 'Yes, delete it');
        var box = h('div', { className: 'error', role: 'alert' }, 'Delete this endpoint? Its waiting deliveries are cancelled. ', confirm, ' ', h('button', { type: 'button', className: 'secondary', onclick: function () { box.remove(); } }, 'Keep it'));
        confirm.addEventListener('click', function () {
          act(confirm, box, function () {
            return api('DELETE', path).then(function () { return showEndpoints().then(function () { say('Endpoint deleted.'); }); });
          });
        });
        controls.appendChild(box);
      });
      append(controls, [h('button', { type: 'button', className: 'secondary', onclick: function () { showEndpointForm(ep); } }, 'Edit'), pause, remove]);

      show(
        h('h1', null, 'Endpoint'),
        h(
          'dl',
          null,
          destinationRows(ep),
          h('dt', null, 'Event types'), h('dd', { testid: 'endpoint-events' }, ep.events.join(', ')),
          h('dt', null, 'Status'), h('dd', { testid: 'endpoint-status' }, statusOf(ep)),
          h('dt', null, 'Description'), h('dd', null, ep.description || '—'),
          h('dt', null, 'Last 24 h'), h('dd', null, ep.health.succeeded_24h + ' delivered, ' + ep.health.failed_24h + ' failed'),
        ),
        controls,
        secretSection(ep, path),
        testEventSection(ep, types),
        recoverSection(ep, path),
      );
    }).catch(failed);
  }

  function secretSection(ep, path) {
    var section = h('section', null, h('h2', null, 'Signing secret'), h('p', { className: 'hint' }, 'Check each delivery\'s signature with it. Rotating makes a new one; the old one keeps signing for 24 hours.'));
    var value = h('code', { testid: 'signing-secret' }, '••••••••');
    var reveal = h('button', { type: 'button', className: 'secondary' }, 'Reveal secret');
    var rotate = h('button', { type: 'button', className: 'secondary' }, 'Rotate secret');
    reveal.addEventListener('click', function () {
      act(reveal, section, function () { return api('GET', path + '/secret').then(function (res) { value.textContent = res.secret; }); });
    });
    rotate.addEventListener('click', function () {
      act(rotate, section, function () {
        return api('POST', path + '/secret/rotate', {}).then(function (res) {
          value.textContent = res.secret;
          say('Secret rotated: the new one is shown.');
        });
      });
    });
    append(section, [h('p', null, value), h('div', { className: 'actions' }, reveal, rotate)]);
    return section;
  }

  /** A test event of a type from the catalog that the endpoint subscribes to, its data the type's example. */
  function testEventSection(ep, types) {
    var subscribed = types.filter(function (t) {
      return ep.events.some(function (p) { return p === '*' || p === t.name || (p.slice(-2) === '.*' && t.name.indexOf(p.slice(0, -1)) === 0); });
    });
    var section = h('section', null, h('h2', null, 'Send a test event'), h('p', { className: 'hint' }, 'It reaches every endpoint of yours subscribed to its type.'));
    if (subscribed.length === 0) {
      append(section, h('p', null, 'This endpoint subscribes to no event type of the catalog.'));
      return section;
    }
    var data = h('textarea', { id: 'test-data' });
    var type = h('select', { id: 'test-type', onchange: fill }, subscribed.map(function (t) { return h('option', { value: t.name }, t.name); }));
    function fill() {
      var chosen = subscribed.filter(function (t) { return t.name === type.value; })[0];
      data.value = json(chosen && chosen.example ? chosen.example : {});
    }
    fill();
    var send = h('button', { type: 'submit' }, 'Send test event');
    var form = h(
      'form',
      {
        onsubmit: function (e) {
          e.preventDefault();
          act(send, form, function () {
            var parsed;
            try { parsed = parseJson(data.value); } catch (err) { return Promise.reject(new ApiError(0, { error: 'The data is not JSON: ' + err.message })); }
            return api('POST', '/events', { type: type.value, data: parsed }).then(function (sent) {
              return showEvent(sent.id).then(function () { say('Test event sent: refresh to follow its delivery.'); });
            });
          });
        },
      },
      h('label', { htmlFor: 'test-type' }, 'Event type'), type,
      h('label', { htmlFor: 'test-data' }, 'Data (a JSON object)'), data,
      h('div', { className: 'actions' }, send),
    );
    append(section, form);
    return section;
  }

  function recoverSection(ep, path) {
    var since = h('input', { type: 'datetime-local', id: 'recover-since', step: 1 });
    var start = h('button', { type: 'submit', className: 'secondary' }, 'Recover failed deliveries');
    var form = h(
      'form',
      {
        onsubmit: function (e) {
          e.preventDefault();
          act(start, form, function () {
            // The input is the viewer's local time; the API takes an instant.
            var at = new Date(since.value);
            if (isNaN(at.getTime())) return Promise.reject(new ApiError(0, { error: 'Choose a date and time.' }));
            return api('POST', path + '/recover', { since: at.toISOString() }).then(function () {
              say('Recovery started: every failed or cancelled delivery since then is attempted again.');
            });
          });
        },
      },
      h('label', { htmlFor: 'recover-since' }, 'Since (your local time)'), since,
      h('div', { className: 'actions' }, start),
    );
    return h('section', null, h('h2', null, 'Recover failed deliveries'), h('p', { className: 'hint' }, 'Start again every delivery to this endpoint that failed or was cancelled since a time (at most 7 days ago).'), form);
  }

  // ---- Events and their deliveries ---------------------------------------------------------------------------

  /** A page of 50, newest first; `cursor`: the next_cursor of the page before (older events). */
  function showEvents(status, cursor) {
    mark('events');
    var query = '/events?limit=50' + (status ? '&status=' + encodeURIComponent(status) : '') + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    return api('GET', query).then(function (page) {
      var filter = h('select', { id: 'event-status' }, ['', 'pending', 'delivered', 'failed'].map(function (s) { return h('option', { value: s, selected: s === (status || '') }, s || 'any'); }));
      filter.addEventListener('change', function () { showEvents(filter.value); });
      var paging = h(
        'div',
        { className: 'actions' },
        cursor ? h('button', { type: 'button', className: 'secondary', onclick: function () { showEvents(status); } }, 'Newest events') : null,
        page.next_cursor ? h('button', { type: 'button', className: 'secondary', onclick: function () { showEvents(status, page.next_cursor); } }, 'Older events') : null,
      );
      show(
        h('h1', null, 'Events'),
        h('label', { htmlFor: 'event-status' }, 'Status'), filter,
        page.data.length === 0
          ? h('p', null, 'No events yet.')
          : h(
              'table',
              null,
              h('thead', null, h('tr', null, h('th', null, 'Event'), h('th', null, 'Type'), h('th', null, 'Status'), h('th', null, 'Created'))),
              h('tbody', null, page.data.map(function (ev) {
                return h(
                  'tr',
                  null,
                  h('td', null, h('button', { type: 'button', className: 'link', onclick: function () { showEvent(ev.id); } }, '#' + ev.id)),
                  h('td', null, ev.type),
                  h('td', { className: 'status-' + ev.status }, ev.status),
                  h('td', null, when(ev.created_at)),
                );
              })),
            ),
        paging,
      );
    }).catch(failed);
  }

  function showEvent(id) {
    mark('events');
    return api('GET', '/events/' + encodeURIComponent(id)).then(function (ev) {
      show(
        h('h1', null, 'Event #' + ev.id),
        h('div', { className: 'actions' }, h('button', { type: 'button', className: 'secondary', onclick: function () { showEvent(ev.id); } }, 'Refresh')),
        h('dl', null, h('dt', null, 'Type'), h('dd', null, ev.type), h('dt', null, 'Status'), h('dd', { testid: 'event-status', className: 'status-' + ev.status }, ev.status), h('dt', null, 'Created'), h('dd', null, when(ev.created_at))),
        h('h2', null, 'Data'),
        h('pre', { testid: 'event-data' }, json(ev.data)),
        h('h2', null, 'Deliveries'),
        ev.deliveries.length === 0 ? h('p', null, 'No endpoint of yours was subscribed to this event type.') : ev.deliveries.map(function (d) { return deliverySection(ev, d); }),
      );
    }).catch(failed);
  }

  /** A delivery with every attempt (status, error, response body) and the controls its status allows. */
  function deliverySection(ev, d) {
    var section = h('section', { testid: 'delivery' });
    var base = '/events/' + ev.id + '/deliveries/' + encodeURIComponent(d.endpoint_id);
    var controls = h('div', { className: 'actions' });
    function control(label, action, done, style) {
      var button = h('button', { type: 'button', className: style || 'secondary' }, label);
      button.addEventListener('click', function () {
        act(button, section, function () { return api('POST', base + '/' + action, {}).then(function () { return showEvent(ev.id).then(function () { say(done); }); }); });
      });
      controls.appendChild(button);
    }
    if (d.status === 'failed' || d.status === 'cancelled') control('Retry', 'retry', 'Delivery started again.');
    if (d.status === 'retrying' && d.next_attempt_at) control('Retry now', 'retry-now', 'The next attempt is being made now.');
    if (d.status === 'pending' || d.status === 'retrying') control('Cancel delivery', 'cancel', 'Delivery cancelled.', 'danger');
    append(
      section,
      [
        h('h2', null, d.url),
        h('dl', null, h('dt', null, 'Status'), h('dd', { testid: 'delivery-status', className: 'status-' + d.status }, d.status + (d.paused ? ' (endpoint paused)' : '')), h('dt', null, 'Next attempt'), h('dd', null, when(d.next_attempt_at))),
        controls,
        d.attempts.length === 0
          ? h('p', null, 'No attempt yet.')
          : h(
              'table',
              null,
              h('thead', null, h('tr', null, h('th', null, 'Attempt'), h('th', null, 'At'), h('th', null, 'Took'), h('th', null, 'Response'), h('th', null, 'Body'))),
              h('tbody', null, d.attempts.map(function (a) {
                return h(
                  'tr',
                  { testid: 'attempt' },
                  h('td', null, String(a.attempt) + (a.round > 1 ? ' (round ' + a.round + ')' : '')),
                  h('td', null, when(a.started_at)),
                  h('td', null, a.duration_ms + ' ms'),
                  h('td', { testid: 'attempt-status-code' }, a.status_code === null ? a.error || 'no response' : String(a.status_code)),
                  h('td', null, h('pre', { testid: 'attempt-response-body' }, a.response_body || '')),
                );
              })),
            ),
      ],
    );
    return section;
  }

  // ---- Start -------------------------------------------------------------------------------------------------

  function applyBranding(settings) {
    if (settings.name) document.getElementById('brand-name').textContent = settings.name;
    var logo = document.getElementById('brand-logo');
    if (settings.logo_url) {
      logo.src = settings.logo_url;
      logo.alt = settings.name ? settings.name + ' logo' : 'Logo';
      logo.hidden = false;
    }
    // Through the CSSOM, which the page's CSP allows (an inline style would not be).
    if (settings.accent_color) document.documentElement.style.setProperty('--accent', settings.accent_color);
  }

  if (!token) {
    showExpired();
    return;
  }
  api('GET', '/portal-settings')
    .then(function (settings) {
      applyBranding(settings);
      buildNav();
      return showEndpoints();
    })
    .catch(failed);
})();
