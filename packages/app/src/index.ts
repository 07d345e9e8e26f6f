import '@backstage/cli/asset-types';
// Backstage UI components (the new entity page header, among others) ship
// their styles as one stylesheet that the app must load.
import '@backstage/ui/css/styles.css';
import ReactDOM from 'react-dom/client';
import app from './App';

ReactDOM.createRoot(document.getElementById('root')!).render(app.createRoot());
