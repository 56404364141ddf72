// Every view beside the rows, in tab order (Table first, then these). A new view is its module in this folder
// and one line here (docs/ARCHITECTURE.md: "Adding a view"). The table widget (src/renderer/widget, the
// floor above this one) reads this list; views never import the widget.
import { calendarView } from './calendar';
import { chartView } from './chart';
import { collocationView } from './collocation';
import { exceedancesView } from './exceedances';
import { mapView } from './map';
import { profilesView } from './profiles';
import { summaryView } from './summary';
import { trendView } from './trend';
import type { ViewDefinition } from './view';

export const VIEWS: readonly ViewDefinition[] = [
  chartView,
  summaryView,
  exceedancesView,
  profilesView,
  calendarView,
  trendView,
  collocationView,
  mapView,
];
